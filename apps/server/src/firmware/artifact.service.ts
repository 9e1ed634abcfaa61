import { rm } from 'node:fs/promises';
import path from 'node:path';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import {
  artifactExtensions,
  artifactUploadFieldsSchema,
  compareVersions,
  firmwareVersionSchema,
  isStorableText,
  otaManifest,
  type Artifact,
  type ArtifactKind,
  type ArtifactListQuery,
  type ArtifactUpdateBody,
  type Page,
  unstorableTextPath,
} from '@mowerline/contract';
import type { MultipartFile } from '@fastify/multipart';
import type { Db } from '../db/client.ts';
import { isUniqueViolation, pageOffset } from '../db/helpers.ts';
import { AppError } from '../http/envelope.ts';
import type { Principal } from '../http/auth.ts';
import { productModels } from '../product/product.sql.ts';
import { artifactPath, FileTooLargeError, FileTypeError, storeUpload } from './artifact-store.ts';
import { otaArtifacts, type OtaArtifactRow } from './firmware.sql.ts';
import type { OtaSigner } from './signing.ts';

const columns = { artifact: otaArtifacts, modelCode: productModels.code };

export function toArtifact(row: OtaArtifactRow, modelCode: string): Artifact {
  return {
    id: row.id,
    kind: row.kind,
    modelId: row.modelId,
    modelCode,
    language: row.language,
    version: row.version,
    changelogZh: row.changelogZh,
    changelogEn: row.changelogEn,
    minFromVersion: row.minFromVersion,
    status: row.status,
    fileName: row.fileName,
    size: row.size,
    sha256: row.sha256,
    signature: row.signature,
    createdBy: row.createdByName,
    createdAt: row.createdAt.toISOString(),
    releasedAt: row.releasedAt?.toISOString() ?? null,
  };
}

/**
 * The version range an artifact claims must make sense, with an answer that says what is wrong:
 * a malformed version, or an "upgradable from" at or above the version itself (no device could
 * ever be updated to it: every campaign would skip them all as BELOW_MIN_VERSION).
 */
function versionFieldError(raw: Record<string, string>): AppError | undefined {
  for (const field of ['version', 'minFromVersion'] as const) {
    const value = raw[field];
    if (value === undefined || (field === 'minFromVersion' && value === '')) continue;
    if (!firmwareVersionSchema.safeParse(value).success) return new AppError('ARTIFACT_VERSION_MALFORMED', { value: value.slice(0, 40) });
  }
  const { version, minFromVersion } = raw;
  if (version && minFromVersion && compareVersions(minFromVersion, version) >= 0) return new AppError('ARTIFACT_MIN_FROM_ABOVE', { minFrom: minFromVersion, version });
  return undefined;
}

/** Magic numbers of the container formats a voice pack may use; firmware images are opaque binaries. */
function headMatches(ext: string, head: Buffer): boolean {
  if (ext === '.zip' || ext === '.vpk') return head.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  if (ext === '.tgz') return head[0] === 0x1f && head[1] === 0x8b;
  // A firmware image is binary: a text or HTML file (no NUL byte in its first 512 bytes) is a mistake.
  if (ext !== '.tar') return head.includes(0);
  return true;
}

export interface UploadDeps {
  db: Db;
  dataDir: string;
  maxMb: number;
  signer: OtaSigner;
}

/**
 * One multipart upload: the fields (which must come before the file) are checked first, then the
 * file is streamed to storage with its SHA-256, signed, and recorded. Nothing remains of a refusal.
 */
export async function uploadArtifact(deps: UploadDeps, kind: ArtifactKind, part: MultipartFile | undefined, who: Principal): Promise<Artifact> {
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError('ARTIFACT_FILE_MISSING');
  }
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    if (value && !Array.isArray(value) && value.type === 'field') raw[name] = String(value.value);
  }
  // The multipart fields bypass the route validator: the same rule for unstorable text applies here.
  const unstorable = unstorableTextPath(raw) ?? (isStorableText(part.filename) ? undefined : 'file');
  if (unstorable !== undefined) {
    part.file.resume();
    throw new AppError('UNSTORABLE_TEXT', { field: `body.${unstorable}` });
  }
  const badVersion = versionFieldError(raw);
  if (badVersion) {
    part.file.resume();
    throw badVersion;
  }
  const parsed = artifactUploadFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    part.file.resume();
    const issue = parsed.error.issues[0];
    throw new AppError('VALIDATION', { detail: `${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}` });
  }
  const fields = parsed.data;
  const allowed: readonly string[] = artifactExtensions[kind];
  const lower = part.filename.toLowerCase();
  const ext = allowed.find((e) => lower.endsWith(e));
  if (!ext || /^(text|image|audio|video)\//.test(part.mimetype)) {
    part.file.resume();
    throw new AppError('ARTIFACT_BAD_TYPE', { allowed: allowed.join(' ') });
  }
  const [model] = await deps.db.select().from(productModels).where(eq(productModels.id, fields.modelId)).limit(1);
  if (!model) {
    part.file.resume();
    throw new AppError('MODEL_NOT_FOUND');
  }
  // A voice pack speaks one language; guessing one would ship the wrong voice to a whole market.
  if (kind === 'voice' && !fields.language) {
    part.file.resume();
    throw new AppError('ARTIFACT_LANGUAGE_REQUIRED');
  }
  const language = kind === 'voice' ? fields.language : '';
  const taken = await deps.db
    .select({ id: otaArtifacts.id })
    .from(otaArtifacts)
    .where(and(eq(otaArtifacts.kind, kind), eq(otaArtifacts.modelId, model.id), eq(otaArtifacts.language, language), eq(otaArtifacts.version, fields.version)))
    .limit(1);
  if (taken.length > 0) {
    part.file.resume();
    throw new AppError('ARTIFACT_VERSION_TAKEN', { version: fields.version });
  }

  let stored;
  try {
    stored = await storeUpload(deps.dataDir, part.file, ext, (head) => headMatches(ext, head));
  } catch (err) {
    if (err instanceof FileTooLargeError) throw new AppError('ARTIFACT_TOO_LARGE', { maxMb: deps.maxMb });
    if (err instanceof FileTypeError) throw new AppError('ARTIFACT_BAD_TYPE', { allowed: allowed.join(' ') });
    throw err;
  }
  const signature = deps.signer.sign(otaManifest({ kind, model: model.code, language, version: fields.version, size: stored.size, sha256: stored.sha256 }));
  try {
    const [row] = await deps.db
      .insert(otaArtifacts)
      .values({
        kind,
        modelId: model.id,
        language,
        version: fields.version,
        changelogZh: fields.changelogZh,
        changelogEn: fields.changelogEn,
        minFromVersion: fields.minFromVersion,
        fileName: path.basename(part.filename).slice(0, 200),
        filePath: stored.relative,
        size: stored.size,
        sha256: stored.sha256,
        signature,
        createdBy: who.id,
        createdByName: who.username,
      })
      .returning();
    return toArtifact(row!, model.code);
  } catch (err) {
    await removeUnreferenced(deps, stored.relative);
    if (isUniqueViolation(err)) throw new AppError('ARTIFACT_VERSION_TAKEN', { version: fields.version });
    throw err;
  }
}

/** Content-addressed files may be shared by two rows: delete only a file no row names. */
async function removeUnreferenced(deps: UploadDeps, relative: string) {
  const [used] = await deps.db.select({ n: count() }).from(otaArtifacts).where(eq(otaArtifacts.filePath, relative));
  if ((used?.n ?? 0) === 0) await rm(artifactPath(deps.dataDir, relative), { force: true });
}

export async function listArtifacts(db: Db, kind: ArtifactKind, query: ArtifactListQuery): Promise<Page<Artifact>> {
  const where: SQL[] = [eq(otaArtifacts.kind, kind)];
  if (query.modelId) where.push(eq(otaArtifacts.modelId, query.modelId));
  if (query.status) where.push(eq(otaArtifacts.status, query.status));
  if (query.language) where.push(eq(otaArtifacts.language, query.language));
  if (query.version) where.push(eq(otaArtifacts.version, query.version));
  const filter = and(...where);
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(otaArtifacts)
      .innerJoin(productModels, eq(productModels.id, otaArtifacts.modelId))
      .where(filter)
      .orderBy(desc(otaArtifacts.createdAt), desc(otaArtifacts.id))
      .limit(query.pageSize)
      .offset(pageOffset(query)),
    db.select({ n: count() }).from(otaArtifacts).where(filter),
  ]);
  return { list: rows.map((r) => toArtifact(r.artifact, r.modelCode)), total: total?.n ?? 0 };
}

export async function getArtifact(db: Db, id: number, kind?: ArtifactKind): Promise<{ row: OtaArtifactRow; modelCode: string }> {
  const [found] = await db
    .select(columns)
    .from(otaArtifacts)
    .innerJoin(productModels, eq(productModels.id, otaArtifacts.modelId))
    .where(and(eq(otaArtifacts.id, id), kind ? eq(otaArtifacts.kind, kind) : undefined))
    .limit(1);
  if (!found) throw new AppError('ARTIFACT_NOT_FOUND');
  return { row: found.artifact, modelCode: found.modelCode };
}

const allowedMoves: Record<string, string[]> = { draft: ['released', 'deprecated'], released: ['deprecated'], deprecated: ['released'] };

/** Changelog edits and the status lifecycle draft → released ⇄ deprecated (never back to draft). */
export async function updateArtifact(db: Db, kind: ArtifactKind, id: number, body: ArtifactUpdateBody): Promise<{ before: Artifact; after: Artifact }> {
  const { row, modelCode } = await getArtifact(db, id, kind);
  if (body.status && body.status !== row.status && !allowedMoves[row.status]?.includes(body.status)) {
    throw new AppError('ARTIFACT_STATUS', { from: row.status, to: body.status });
  }
  const [updated] = await db
    .update(otaArtifacts)
    .set({
      ...(body.changelogZh !== undefined ? { changelogZh: body.changelogZh } : {}),
      ...(body.changelogEn !== undefined ? { changelogEn: body.changelogEn } : {}),
      ...(body.status ? { status: body.status } : {}),
      ...(body.status === 'released' && !row.releasedAt ? { releasedAt: new Date() } : {}),
    })
    .where(eq(otaArtifacts.id, id))
    .returning();
  return { before: toArtifact(row, modelCode), after: toArtifact(updated!, modelCode) };
}

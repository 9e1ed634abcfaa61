import { and, asc, eq, like, type SQL } from 'drizzle-orm';
import type {
  ProductModel,
  ProductModelCreateBody,
  ProductModelUpdateBody,
  SnCreateBody,
  SnListQuery,
  SnRecord,
  SnSecret,
  SnUpdateBody,
} from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { isUniqueViolation, pageOffset, prefixPattern } from '../db/helpers.ts';
import { countMatches } from '../devices/count.ts';
import { emit } from '../events/emit.ts';
import { deviceState, devices, ownerIs } from '../devices/devices.sql.ts';
import { generateSecret, hashSecret } from '../gateway/device-credentials.ts';
import { issuePairingCodes } from '../end-users/binding.service.ts';
import { AppError } from '../http/envelope.ts';
import { productModels, type ProductModelRow } from './product.sql.ts';
import type { ImportRow } from './sn-import.ts';

function toModel(row: ProductModelRow): ProductModel {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    description: row.description,
    limits: { telemetryRate: row.telemetryRate, telemetryBurst: row.telemetryBurst, eventsPerHour: row.eventsPerHour },
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listModels(db: Db): Promise<ProductModel[]> {
  return (await db.select().from(productModels).orderBy(asc(productModels.code))).map(toModel);
}

export async function createModel(db: Db, body: ProductModelCreateBody): Promise<ProductModel> {
  try {
    const [row] = await db.insert(productModels).values({ code: body.code, name: body.name, description: body.description ?? '' }).returning();
    return toModel(row!);
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('MODEL_CODE_TAKEN');
    throw err;
  }
}

export async function updateModel(db: Db, id: number, body: ProductModelUpdateBody): Promise<{ before: ProductModel; after: ProductModel }> {
  const [before] = await db.select().from(productModels).where(eq(productModels.id, id)).limit(1);
  if (!before) throw new AppError('MODEL_NOT_FOUND');
  // Limits left out of the body stay as they are; null returns one to the server default.
  const { limits, ...fields } = body;
  const [after] = await db
    .update(productModels)
    .set({ ...fields, ...limits })
    .where(eq(productModels.id, id))
    .returning();
  return { before: toModel(before), after: toModel(after!) };
}

const snColumns = {
  sn: devices.sn,
  modelId: devices.modelId,
  modelCode: productModels.code,
  modelName: productModels.name,
  enabled: devices.enabled,
  region: devices.region,
  owner: devices.owner,
  remark: devices.remark,
  online: deviceState.online,
  createdAt: devices.createdAt,
  secretRotatedAt: devices.secretRotatedAt,
};

type SnRow = { [K in keyof typeof snColumns]: (typeof snColumns)[K]['_']['data'] };

function toSnRecord(row: SnRow): SnRecord {
  return { ...row, online: row.online ?? false, createdAt: row.createdAt.toISOString(), secretRotatedAt: row.secretRotatedAt.toISOString() };
}

export async function listSn(db: Db, query: SnListQuery) {
  const conditions: SQL[] = [];
  if (query.sn) conditions.push(like(devices.sn, prefixPattern(query.sn)));
  if (query.modelId) conditions.push(eq(devices.modelId, query.modelId));
  if (query.enabled !== undefined) conditions.push(eq(devices.enabled, query.enabled));
  if (query.region) conditions.push(eq(devices.region, query.region));
  if (query.owner) conditions.push(ownerIs(query.owner));
  const where = and(...conditions);
  const [rows, { total, exact }] = await Promise.all([
    db
      .select(snColumns)
      .from(devices)
      .innerJoin(productModels, eq(productModels.id, devices.modelId))
      .leftJoin(deviceState, eq(deviceState.sn, devices.sn))
      .where(where)
      .orderBy(asc(devices.sn))
      .limit(query.pageSize)
      .offset(pageOffset(query)),
    countMatches(db, () => db.select({ one: devices.sn }).from(devices).where(where).$dynamic()),
  ]);
  return { list: rows.map((r) => toSnRecord(r as SnRow)), total, totalExact: exact };
}

export async function getSn(db: Db, sn: string): Promise<SnRecord> {
  const [row] = await db
    .select(snColumns)
    .from(devices)
    .innerJoin(productModels, eq(productModels.id, devices.modelId))
    .leftJoin(deviceState, eq(deviceState.sn, devices.sn))
    .where(eq(devices.sn, sn))
    .limit(1);
  if (!row) throw new AppError('SN_NOT_FOUND', { sn });
  return toSnRecord(row as SnRow);
}

async function requireModel(db: Db, modelId: number) {
  const [model] = await db.select({ id: productModels.id }).from(productModels).where(eq(productModels.id, modelId)).limit(1);
  if (!model) throw new AppError('MODEL_NOT_FOUND');
}

/** Registers one SN; the secret is returned here and never again. */
export async function createSn(db: Db, body: SnCreateBody): Promise<SnSecret> {
  await requireModel(db, body.modelId);
  const secret = generateSecret();
  try {
    const codes = await insertDevices(db, [{ sn: body.sn, modelId: body.modelId, region: body.region ?? '', owner: body.owner ?? '', remark: body.remark ?? '', secret }]);
    return { sn: body.sn, secret, pairingCode: codes.get(body.sn)! };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('SN_EXISTS', { sn: body.sn });
    throw err;
  }
}

/** Registry rows, their (offline) state rows and their pairing codes, in one transaction; returns the codes. */
export async function insertDevices(db: Db, rows: Array<ImportRow & { secret: string }>): Promise<Map<string, string>> {
  return db.transaction(async (tx) => {
    for (let i = 0; i < rows.length; i += 1000) {
      const part = rows.slice(i, i + 1000);
      await tx.insert(devices).values(
        part.map((r) => ({ sn: r.sn, modelId: r.modelId, region: r.region, owner: r.owner, remark: r.remark, ...hashSecret(r.secret) })),
      );
      await tx.insert(deviceState).values(part.map((r) => ({ sn: r.sn })));
      await emit(tx, ...part.map((r) => ({ type: 'device.registered' as const, subject: r.sn, payload: { sn: r.sn, modelId: r.modelId } })));
    }
    return issuePairingCodes(tx, rows.map((r) => r.sn));
  });
}

/** Imports validated rows (sn-import.ts): all of them or, on any conflict, none. */
export async function importSn(db: Db, rows: ImportRow[]): Promise<Array<{ sn: string; secret: string | null; pairingCode: string }>> {
  const withSecrets = rows.map((r) => ({ ...r, generated: r.secret === undefined, secret: r.secret ?? generateSecret() }));
  let codes: Map<string, string>;
  try {
    codes = await insertDevices(db, withSecrets);
  } catch (err) {
    // Another import registered one of these SNs between validation and insert.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT');
    throw err;
  }
  return withSecrets.map((r) => ({ sn: r.sn, secret: r.generated ? r.secret : null, pairingCode: codes.get(r.sn)! }));
}

export async function updateSn(db: Db, sn: string, body: SnUpdateBody): Promise<{ before: SnRecord; after: SnRecord }> {
  const before = await getSn(db, sn);
  await db
    .update(devices)
    .set({ ...body, updatedAt: new Date() })
    .where(eq(devices.sn, sn));
  return { before, after: await getSn(db, sn) };
}

export async function rotateSecret(db: Db, sn: string): Promise<SnSecret> {
  const secret = generateSecret();
  const now = new Date();
  const rows = await db
    .update(devices)
    .set({ ...hashSecret(secret), secretRotatedAt: now, updatedAt: now })
    .where(eq(devices.sn, sn))
    .returning({ sn: devices.sn });
  if (rows.length === 0) throw new AppError('SN_NOT_FOUND', { sn });
  const codes = await issuePairingCodes(db, [sn]);
  return { sn, secret, pairingCode: codes.get(sn)! };
}

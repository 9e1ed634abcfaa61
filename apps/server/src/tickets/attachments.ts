import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { isStorableText, type TicketAttachmentType } from '@mowerline/contract';
import { asc, inArray } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { AppError } from '../http/envelope.ts';
import { ticketFileDeletions } from './tickets.sql.ts';

/**
 * Ticket attachments, stored like firmware under DATA_DIR/files (here `tickets/`), streamed to disk
 * with a size limit. The type comes from the bytes (`file-type`), never from the name or the
 * client's header: jpg/png/webp screenshots, zip/gz archives, and plain text (which has no magic
 * number, so it must decode as UTF-8 and hold no NUL). Images are re-encoded by `sharp`: rotated
 * upright from their EXIF orientation, then written without any metadata (EXIF, GPS), and
 * thumbnailed. Whatever is refused, nothing of it stays on disk.
 */

const THUMB_PX = 320;
const images = { 'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp' } as const;
const extensions: Record<TicketAttachmentType, string> = {
  'image/jpeg': '.jpg',
  'image/png': '.png',
  'image/webp': '.webp',
  'text/plain': '.txt',
  'application/zip': '.zip',
  'application/gzip': '.gz',
};

/** A stored attachment not yet recorded in the database (`discard` removes it again). */
export interface StagedFile {
  name: string;
  mime: TicketAttachmentType;
  size: number;
  sha256: string;
  /** Relative to DATA_DIR/files. */
  relative: string;
  thumbRelative: string | null;
}

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');

/** The uploaded name as harmless text: no directories, no control characters, at most 200 characters. */
export function cleanName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  const text = [...base]
    .map((c) => (isStorableText(c) && c >= ' ' && c !== '\u007f' ? c : '_'))
    .join('')
    .trim()
    .slice(0, 200);
  return text || 'attachment';
}

/** Streams one upload to a temporary file, refusing it past `maxBytes`. */
async function receive(dataDir: string, source: Readable & { truncated?: boolean }, maxBytes: number, name: string): Promise<string> {
  const tmpDir = path.join(filesRoot(dataDir), 'tmp');
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      // Multipart truncates at its own limit; a source without one is cut here.
      if (size > maxBytes) return done(new AppError('TICKET_ATTACHMENT_TOO_LARGE', { name, maxMb: Math.round(maxBytes / 1048576) }));
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tmp, { mode: 0o640 }));
    if (source.truncated) throw new AppError('TICKET_ATTACHMENT_TOO_LARGE', { name, maxMb: Math.round(maxBytes / 1048576) });
    if (size === 0) throw new AppError('TICKET_ATTACHMENT_BAD_TYPE', { name });
    return tmp;
  } catch (err) {
    // The rest of the part is read and dropped, so the client gets our answer rather than a reset.
    source.resume();
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Plain text has no magic: it is text when it decodes as UTF-8 and holds no NUL. */
async function isPlainText(file: string): Promise<boolean> {
  const bytes = await readFile(file);
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

async function sniff(file: string): Promise<TicketAttachmentType | undefined> {
  const found = await fileTypeFromFile(file);
  if (!found) return (await isPlainText(file)) ? 'text/plain' : undefined;
  return (Object.keys(extensions) as TicketAttachmentType[]).find((mime) => mime === found.mime);
}

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Receives, checks and stores one attachment. Refusals are catalogue errors naming the file; the
 * caller removes what earlier files of the same request stored (`discard`).
 */
export async function stageAttachment(dataDir: string, source: Readable & { truncated?: boolean }, rawName: string | undefined, maxBytes: number): Promise<StagedFile> {
  const name = cleanName(rawName);
  const tmp = await receive(dataDir, source, maxBytes, name);
  const dir = path.join(filesRoot(dataDir), 'tickets');
  const stem = randomBytes(16).toString('hex');
  const written: string[] = [];
  try {
    const mime = await sniff(tmp);
    if (!mime) throw new AppError('TICKET_ATTACHMENT_BAD_TYPE', { name });
    await mkdir(dir, { recursive: true });
    const relative = path.join('tickets', `${stem}${extensions[mime]}`);
    const target = path.join(filesRoot(dataDir), relative);
    let thumbRelative: string | null = null;
    if (mime in images) {
      const format = images[mime as keyof typeof images];
      written.push(target);
      try {
        // sharp writes no metadata unless asked: EXIF (and GPS) are gone once re-encoded.
        await sharp(tmp, { limitInputPixels: 64_000_000 }).rotate().toFormat(format).toFile(target);
        thumbRelative = path.join('tickets', `${stem}.thumb.webp`);
        const thumb = path.join(filesRoot(dataDir), thumbRelative);
        written.push(thumb);
        await sharp(target).resize(THUMB_PX, THUMB_PX, { fit: 'inside', withoutEnlargement: true }).webp({ quality: 75 }).toFile(thumb);
      } catch (err) {
        if (err instanceof AppError) throw err;
        // A header that looks like an image over bytes that are not one.
        throw new AppError('TICKET_ATTACHMENT_BAD_TYPE', { name });
      }
    } else {
      written.push(target);
      await rename(tmp, target);
    }
    return { name, mime, size: (await stat(target)).size, sha256: await sha256Of(target), relative, thumbRelative };
  } catch (err) {
    await Promise.all(written.map((file) => rm(file, { force: true })));
    throw err;
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Removes stored files of a refused request (or of rows that were never written). */
export async function discard(dataDir: string, staged: readonly StagedFile[]): Promise<void> {
  const files = staged.flatMap((s) => [s.relative, s.thumbRelative]).filter((f): f is string => !!f);
  await Promise.all(files.map((f) => rm(path.join(filesRoot(dataDir), f), { force: true })));
}

/**
 * Removes the files whose attachment rows are gone (queued by the database, tickets.sql.ts), a
 * batch at a time; a path leaves the queue only once its file is gone. Returns how many went.
 */
export async function sweepDeletedFiles(db: Db, dataDir: string): Promise<number> {
  let removed = 0;
  for (;;) {
    const batch = await db.select({ path: ticketFileDeletions.path }).from(ticketFileDeletions).orderBy(asc(ticketFileDeletions.queuedAt)).limit(500);
    if (batch.length === 0) return removed;
    const root = filesRoot(dataDir);
    await Promise.all(
      batch.map(async ({ path: relative }) => {
        const full = path.join(root, relative);
        // Paths are the server's own (tickets/<random>.<ext>); anything else is never followed.
        if (path.relative(root, full).startsWith('..')) return;
        await rm(full, { force: true });
      }),
    );
    await db.delete(ticketFileDeletions).where(inArray(ticketFileDeletions.path, batch.map((b) => b.path)));
    removed += batch.length;
  }
}

/** Sends a stored attachment (or its thumbnail) as a download, never as something a browser would render. */
export async function sendAttachment(reply: FastifyReply, dataDir: string, file: { name: string; relative: string; thumb: boolean }): Promise<FastifyReply> {
  const full = path.join(filesRoot(dataDir), file.relative);
  const size = (await stat(full)).size;
  const name = file.thumb ? `${file.name}.thumb.webp` : file.name;
  const ascii = name.replace(/[^\w.-]/g, '_');
  return reply
    .type('application/octet-stream')
    .header('Content-Length', size)
    .header('Cache-Control', 'private, no-store')
    .header('Content-Disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`)
    .send(createReadStream(full));
}

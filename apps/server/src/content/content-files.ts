import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { CONTENT_IMAGE_MAX_MB, CONTENT_VIDEO_MAX_MB, type ContentFileKind } from '@mowerline/contract';
import type { Config } from '../config.ts';
import { AppError } from '../http/envelope.ts';
import { parseRange } from '../firmware/download.ts';

/** What the bytes may be, by the kind the uploader asked for; the file name and declared type are not believed. */
export const allowedMimes: Record<ContentFileKind, readonly string[]> = {
  image: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
  video: ['video/mp4', 'video/webm', 'video/quicktime'],
};
const videoExt: Record<string, string> = { 'video/mp4': '.mp4', 'video/webm': '.webm', 'video/quicktime': '.mov' };
export const maxBytes = (kind: ContentFileKind) => (kind === 'image' ? CONTENT_IMAGE_MAX_MB : CONTENT_VIDEO_MAX_MB) * 1024 * 1024;
/** Longest side of a stored image: covers and posts are shown on phones, not printed. */
const IMAGE_MAX_SIDE = 2048;

export interface StoredContentFile {
  /** Relative to DATA_DIR/files. */
  relative: string;
  mime: string;
  size: number;
  sha256: string;
  width: number | null;
  height: number | null;
}

const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
export const contentFilePath = (dataDir: string, relative: string) => path.join(filesRoot(dataDir), relative);

/**
 * Streams an upload to a temporary file (refusing it past the kind's limit), sniffs its type from
 * the bytes, and for an image re-encodes it (orientation applied, EXIF and every other metadata
 * dropped, the longest side bounded) before it is moved into DATA_DIR/files/content. Whatever goes
 * wrong, the temporary file is removed: a refused upload leaves nothing behind.
 */
export async function storeContentFile(dataDir: string, source: Readable & { truncated?: boolean }, kind: ContentFileKind): Promise<StoredContentFile> {
  const limit = maxBytes(kind);
  const tmpDir = path.join(filesRoot(dataDir), 'tmp');
  const dir = path.join(filesRoot(dataDir), 'content');
  await mkdir(tmpDir, { recursive: true });
  await mkdir(dir, { recursive: true });
  const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
  const tmpOut = `${tmp}.out`;
  let size = 0;
  // Past the limit the rest is read and dropped rather than failing the stream: destroying the
  // multipart part mid-request would leave the client waiting instead of getting our answer.
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(null, size > limit ? undefined : chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tmp, { mode: 0o640 }));
    if (source.truncated || size > limit) throw new AppError('CONTENT_FILE_TOO_LARGE', { maxMb: limit / 1024 / 1024 });
    const sniffed = size > 0 ? await fileTypeFromFile(tmp) : undefined;
    if (!sniffed || !allowedMimes[kind].includes(sniffed.mime)) throw new AppError('CONTENT_FILE_TYPE', { allowed: allowedMimes[kind].join(', ') });
    let mime = sniffed.mime;
    let width: number | null = null;
    let height: number | null = null;
    let ext = videoExt[mime] ?? '';
    let finalTmp = tmp;
    if (kind === 'image') {
      const encoded = await reencodeImage(tmp);
      await writeFile(tmpOut, encoded.data, { mode: 0o640 });
      finalTmp = tmpOut;
      ({ mime, width, height, ext } = encoded);
      size = encoded.data.length;
    }
    const sha256 = await hashFile(finalTmp);
    const relative = path.join('content', `${sha256}${ext}`);
    await rename(finalTmp, contentFilePath(dataDir, relative));
    return { relative, mime, size, sha256, width, height };
  } catch (err) {
    // The rest of the upload is read and discarded so the client gets our answer, not a reset.
    source.resume();
    if (err instanceof AppError) throw err;
    // sharp refuses a file whose header looks like an image but whose body is not one.
    if (err instanceof Error && /Input|unsupported image|corrupt|VipsJpeg|pngload|webpload|gifload/i.test(err.message)) {
      throw new AppError('CONTENT_FILE_TYPE', { allowed: allowedMimes[kind].join(', ') });
    }
    throw err;
  } finally {
    await rm(tmp, { force: true });
    await rm(tmpOut, { force: true });
  }
}

/** PNG when the image has transparency, JPEG otherwise; sharp writes no metadata unless asked to. */
async function reencodeImage(file: string) {
  const image = sharp(file, { limitInputPixels: 50_000_000 }).rotate().resize({ width: IMAGE_MAX_SIDE, height: IMAGE_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
  const meta = await sharp(file).metadata();
  const png = !!meta.hasAlpha;
  const { data, info } = await (png ? image.png() : image.jpeg({ quality: 85, mozjpeg: true })).toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, mime: png ? 'image/png' : 'image/jpeg', ext: png ? '.png' : '.jpg' };
}

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(file), hash);
  return hash.digest('hex');
}

/**
 * Signed links to content files: an <img> or a video player cannot send a token, and a draft's
 * files must not be guessable. The expiry is rounded to the hour so a link stays the same (and
 * cacheable) across refreshes for at least an hour.
 */
export function createContentUrlSigner(config: Pick<Config, 'jwtSecret'>) {
  const secret = createHmac('sha256', config.jwtSecret).update('mowerline-content-file-url').digest();
  const mac = (fileId: number, exp: number) => createHmac('sha256', secret).update(`${fileId}\n${exp}`).digest('base64url');
  return {
    url(fileId: number, base = ''): string {
      const exp = (Math.floor(Date.now() / 3_600_000) + 2) * 3600;
      return `${base}/api/content/file/${fileId}?exp=${exp}&sig=${mac(fileId, exp)}`;
    },
    verify(fileId: number, exp: number, sig: string): boolean {
      if (!Number.isFinite(exp) || exp * 1000 < Date.now()) return false;
      const want = Buffer.from(mac(fileId, exp));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
  };
}
export type ContentUrlSigner = ReturnType<typeof createContentUrlSigner>;

/** A stored file with its own type (nosniff is on, so it must be right) and Range support for video seeking. */
export function sendContentFile(request: FastifyRequest, reply: FastifyReply, file: string, size: number, mime: string, sha256: string) {
  const etag = `"${sha256}"`;
  reply.header('Accept-Ranges', 'bytes').header('ETag', etag).header('Cache-Control', 'private, max-age=3600');
  reply.type(mime);
  const range = parseRange(request.headers.range, size);
  if (range === 'invalid') {
    reply.header('Content-Range', `bytes */${size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE');
  }
  if (!range) {
    reply.header('Content-Length', size);
    return reply.send(createReadStream(file));
  }
  const [start, end] = range;
  reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', end - start + 1);
  return reply.send(createReadStream(file, { start, end }));
}

import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Where artifacts live: DATA_DIR/files/ota, content-addressed by SHA-256 so a retry stores nothing twice. */
export function artifactDir(dataDir: string): string {
  return path.join(dataDir, 'files', 'ota');
}

export function artifactPath(dataDir: string, relative: string): string {
  return path.join(dataDir, 'files', relative);
}

export interface StoredFile {
  /** Relative to DATA_DIR/files. */
  relative: string;
  size: number;
  sha256: string;
}

export class FileTooLargeError extends Error {}
export class FileTypeError extends Error {}

/**
 * Streams an upload to a temporary file while hashing it, checks its first bytes, then renames it
 * into place. Whatever goes wrong (too large, wrong content, a broken connection), the temporary
 * file is removed: a refused upload leaves nothing behind.
 */
export async function storeUpload(
  dataDir: string,
  source: Readable & { truncated?: boolean },
  ext: string,
  checkHead: (head: Buffer) => boolean,
): Promise<StoredFile> {
  const dir = artifactDir(dataDir);
  const tmpDir = path.join(dataDir, 'files', 'tmp');
  await mkdir(dir, { recursive: true });
  await mkdir(tmpDir, { recursive: true });
  const tmp = path.join(tmpDir, `${randomBytes(12).toString('hex')}.part`);
  const hash = createHash('sha256');
  let size = 0;
  let head: Buffer | undefined;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      if (!head) {
        head = chunk.subarray(0, 512);
        if (!checkHead(head)) return done(new FileTypeError('content does not match the file type'));
      }
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, meter, createWriteStream(tmp, { mode: 0o640 }));
    if (source.truncated) throw new FileTooLargeError('limit reached');
    if (size === 0) throw new FileTypeError('empty file');
    const sha256 = hash.digest('hex');
    const relative = path.join('ota', `${sha256}${ext}`);
    await rename(tmp, artifactPath(dataDir, relative));
    return { relative, size, sha256 };
  } catch (err) {
    // The rest of the upload is read and discarded so the client gets our answer, not a reset.
    source.resume();
    await rm(tmp, { force: true });
    throw err;
  }
}

export async function fileSize(file: string): Promise<number | undefined> {
  try {
    return (await stat(file)).size;
  } catch {
    return undefined;
  }
}

import { createReadStream } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/envelope.ts';

/** `Range: bytes=a-b | a- | -n` (one range) → [start, end] inclusive; 'invalid' for a range past the end. */
export function parseRange(header: string | undefined, size: number): [number, number] | 'invalid' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answer with the whole file, as RFC 9110 allows.
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'invalid';
  return [start, end];
}

/**
 * Sends an artifact with resumable downloads: `Accept-Ranges`, a strong ETag (its SHA-256),
 * 206 + Content-Range for a range, 416 for one past the end, and `If-Range` honoured so a device
 * never glues bytes of two different files together.
 */
export function sendArtifactFile(request: FastifyRequest, reply: FastifyReply, file: string, size: number, sha256: string, fileName: string) {
  const etag = `"${sha256}"`;
  const ifRange = request.headers['if-range'];
  const range = ifRange && ifRange !== etag ? undefined : parseRange(request.headers.range, size);
  reply.header('Accept-Ranges', 'bytes').header('ETag', etag).header('Cache-Control', 'private, no-store');
  reply.header('Content-Disposition', `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`);
  if (range === 'invalid') {
    reply.header('Content-Range', `bytes */${size}`);
    throw new AppError('RANGE_NOT_SATISFIABLE');
  }
  reply.type('application/octet-stream');
  if (!range) {
    reply.header('Content-Length', size);
    return reply.send(createReadStream(file));
  }
  const [start, end] = range;
  reply.code(206).header('Content-Range', `bytes ${start}-${end}/${size}`).header('Content-Length', end - start + 1);
  return reply.send(createReadStream(file, { start, end }));
}

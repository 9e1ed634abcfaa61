import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { errorMessage, errors, type Envelope, type ErrorKey } from '@mowerline/contract';

/** What a socket error answers, by Node's error code: no route was reached, so no hook or handler ran. */
function answerOf(code: string | undefined): { status: number; key?: ErrorKey; detail?: string } {
  switch (code) {
    // A request line (path and query string) and headers past Node's 16 KiB limit, documented as
    // 431 on every endpoint: one answer whichever part was too long, as Node cannot tell them apart.
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, key: 'HEADERS_TOO_LARGE' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408 };
    default:
      return { status: 400, key: 'VALIDATION', detail: 'malformed HTTP request' };
  }
}

/**
 * The `clientErrorHandler`: a request Node's HTTP parser refused is answered with the error
 * envelope like every other refusal (Fastify's own writes a body of its own shape), then the
 * connection is closed, as the parser cannot find where the next request would start. The message
 * is in the default language: the headers, Accept-Language among them, were never read.
 */
export function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  // Unless an answer to this request has begun (a kept-alive connection has carried earlier ones).
  const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (socket.writable && !answering?.headersSent) {
    const { status, key, detail } = answerOf(err.code);
    const envelope: Envelope<null> | undefined = key && { code: errors[key].code, msg: errorMessage(key, undefined, detail ? { detail } : {}), data: null, status: 'fail' };
    const body = envelope ? JSON.stringify(envelope) : '';
    const type = envelope ? 'Content-Type: application/json; charset=utf-8\r\n' : '';
    socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(err);
}

import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './webhook-url.ts';

/** How much of an answer the delivery log keeps. */
export const EXCERPT_BYTES = 4096;

export interface PostResult {
  /** The HTTP status, or undefined when no answer came (refused, timed out). */
  status?: number;
  excerpt: string;
  durationMs: number;
  error: string;
}

/**
 * POSTs one delivery to the address that was checked (the connection never resolves the name again,
 * so a DNS answer that changes in between cannot point it elsewhere). Redirects are not followed: a
 * 3xx is an answer like any other non-2xx. The whole exchange must end within `timeoutMs`; only the
 * first 4 KiB of the answer are read.
 */
export function postWebhook(target: CheckedTarget, headers: Record<string, string>, body: string, timeoutMs: number): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    if ((options as { all?: boolean }).all) (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const client = target.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Omit<PostResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = client.request(
      target.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'Mowerline-Webhooks/1' },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => finish({ status: response.statusCode, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8').replaceAll('\u0000', ''), error: '' });
        response.on('data', (chunk: Buffer) => {
          if (size >= EXCERPT_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) {
            done();
            response.destroy();
          }
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ excerpt: '', error: `no answer within ${timeoutMs / 1000} s` });
    }, timeoutMs);
    request.on('error', (err) => finish({ excerpt: '', error: err.message.slice(0, 500) }));
    request.end(body);
  });
}

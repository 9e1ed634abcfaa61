import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A local webhook receiver: records every request and answers with the next status of `answers`
 * (the last one repeats), so a test can make it fail a few times and then succeed.
 */
export async function startReceiver(answers: number[] = [200]) {
  const received: Received[] = [];
  let next = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = answers[Math.min(next++, answers.length - 1)]!;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'thanks' : 'receiver down');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    setAnswers(list: number[]) {
      answers = list;
      next = 0;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

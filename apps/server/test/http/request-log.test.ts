import { Writable } from 'node:stream';
import Fastify, { LogController } from 'fastify';
import { describe, expect, it } from 'vitest';
import { installRequestLog, loggerOptions } from '../../src/http/request-log.ts';

/** A Fastify app logging into an array, with the server's request-log policy. */
async function appLogging(slowMs: number, level = 'info') {
  const lines: Array<{ level: number; msg: string; status?: number; path?: string }> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  const app = Fastify({ logger: { level, stream }, logController: new LogController({ disableRequestLogging: true }) });
  installRequestLog(app, slowMs);
  app.get('/ok', async () => ({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('boom');
  });
  await app.ready();
  return { app, lines };
}

describe('server log', () => {
  it('logs no line for a quick successful request, one for an error', async () => {
    const { app, lines } = await appLogging(60_000);
    expect((await app.inject('/ok?sig=secret')).statusCode).toBe(200);
    expect(lines.filter((l) => l.path)).toEqual([]);
    await app.inject('/boom');
    await app.inject('/missing');
    const requests = lines.filter((l) => l.path);
    expect(requests.map((l) => [l.level, l.path, l.status])).toEqual([
      [50, '/boom', 500],
      [30, '/missing', 404],
    ]);
    await app.close();
  });

  it('logs a request at or above the slow threshold, without its query', async () => {
    const { app, lines } = await appLogging(0);
    await app.inject('/ok?sig=secret');
    const [line] = lines.filter((l) => l.path);
    expect(line).toMatchObject({ path: '/ok', status: 200 });
    expect(JSON.stringify(lines)).not.toContain('secret');
    await app.close();
  });

  it('logs arrivals only at debug level', async () => {
    const { app, lines } = await appLogging(60_000, 'debug');
    await app.inject('/ok');
    expect(lines.filter((l) => l.msg === 'incoming request')).toHaveLength(1);
    await app.close();
  });

  it('pretty-prints through pino-pretty when asked, JSON lines otherwise', async () => {
    const written: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stdout.write;
    try {
      for (const logPretty of [true, false]) {
        const app = Fastify({ logger: loggerOptions({ logLevel: 'info', logPretty }) });
        app.log.info({ sn: 'MLX1-0001' }, 'device gateway started');
        await app.close();
      }
    } finally {
      process.stdout.write = write;
    }
    const [prettyLine, jsonLine] = written.filter((w) => w.includes('device gateway started'));
    expect(prettyLine).toMatch(/INFO.*device gateway started/);
    expect(() => JSON.parse(prettyLine!)).toThrow();
    expect(JSON.parse(jsonLine!)).toMatchObject({ level: 30, msg: 'device gateway started', sn: 'MLX1-0001' });
  });
});

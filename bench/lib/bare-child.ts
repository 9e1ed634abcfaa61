/**
 * The API baseline: a bare Fastify server that answers GET /bare/:i with a prepared body of the
 * same bytes as the real endpoint i — no auth, no validation, no database. What is left is the
 * HTTP cost of the payload, so "API ÷ bare" is what the platform's own work costs on top.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const bodies = JSON.parse(readFileSync(process.env.BENCH_BARE_BODIES!, 'utf8')) as string[];
const app = Fastify({ logger: false });
app.get<{ Params: { i: string } }>('/bare/:i', async (request, reply) => reply.type('application/json; charset=utf-8').send(bodies[Number(request.params.i)] ?? '{}'));
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address() as { port: number };
process.send!({ type: 'ready', url: `http://127.0.0.1:${address.port}`, mqttUrl: '' });
process.on('message', (m: { id: number; type: string }) => {
  if (m.type !== 'stop') return;
  void app.close().finally(() => {
    process.send!({ type: 'reply', id: m.id, data: null });
    process.exit(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellRecords, shellSessions } from '../../src/shell/shell.sql.ts';
import { pruneRecordings } from '../../src/shell/shell.service.ts';
import { startServer, type TestServer } from '../harness.ts';

describe('shell recording retention', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('deletes sessions that ended before the retention, with their recordings, and keeps the rest', async () => {
    const day = 86_400_000;
    const session = (id: string, closedAt: Date | null) => ({
      id,
      sn: 'SN-RETAIN',
      staffId: 1,
      staffName: 'admin',
      nodeId: 'n1',
      status: closedAt ? ('closed' as const) : ('open' as const),
      openedAt: new Date(Date.now() - 100 * day),
      closedAt,
      cols: 80,
      rows: 24,
    });
    await server.ctx.db.insert(shellSessions).values([session('old', new Date(Date.now() - 91 * day)), session('recent', new Date(Date.now() - day)), session('open', null)]);
    await server.ctx.db.insert(shellRecords).values([
      { sessionId: 'old', seq: 0, atMs: 0, kind: 'o', data: Buffer.from('old output') },
      { sessionId: 'recent', seq: 0, atMs: 0, kind: 'o', data: Buffer.from('recent output') },
    ]);
    expect(await pruneRecordings(server.ctx.db, 90)).toBe(1);
    const sessions = (await server.ctx.db.select({ id: shellSessions.id }).from(shellSessions)).map((r) => r.id).sort();
    expect(sessions).toEqual(['open', 'recent']);
    const records = (await server.ctx.db.select({ id: shellRecords.sessionId }).from(shellRecords)).map((r) => r.id);
    expect(records).toEqual(['recent']);
  });
});

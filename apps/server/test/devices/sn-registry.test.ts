import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { errors, type ProductModel, type SnImportReport, type SnImportResult, type SnRecord } from '@mowerline/contract';
import { devices } from '../../src/devices/devices.sql.ts';
import { systemLogs } from '../../src/system-log/system-log.sql.ts';
import type { TestServer } from '../harness.ts';
import { brokerAuthHeaders, createModel, EN, operatorToken, registerSn, startDeviceServer, uniqueSn } from './fixtures.ts';

describe('product models and serial numbers', () => {
  let server: TestServer;
  let admin: string;
  let operator: string;
  let modelId: number;
  beforeAll(async () => {
    server = await startDeviceServer();
    admin = await server.login();
    operator = await operatorToken(server, admin);
    modelId = await createModel(server, admin, 'ML-500');
  });
  afterAll(() => server.close());

  const auth = (username: string, password: string) => server.api('POST', '/api/device-auth/mqtt', { body: { username, password, clientid: username }, headers: brokerAuthHeaders });
  const importCsv = (csv: string, token = admin, lang?: string) =>
    server.api<SnImportResult>('POST', '/api/admin/product/sn/import', { token, rawBody: csv, lang, headers: { 'content-type': 'text/csv' } });
  const auditOf = (action: string) => server.ctx.db.select().from(systemLogs).where(eq(systemLogs.action, action));

  describe('models', () => {
    it('creates, lists and renames models; a code is unique', async () => {
      const created = await server.api<ProductModel>('POST', '/api/admin/product/model', { token: admin, body: { code: 'ml-1000x', name: 'Mower 1000X', description: 'Large gardens' } });
      expect(created.body.data).toMatchObject({ code: 'ML-1000X', name: 'Mower 1000X', description: 'Large gardens' });
      const taken = await server.api('POST', '/api/admin/product/model', { token: admin, body: { code: 'ML-1000X', name: 'Again' }, lang: EN });
      expect(taken.status).toBe(409);
      expect(taken.body).toMatchObject({ code: 42002, msg: 'The product model code is already taken' });
      const renamed = await server.api<ProductModel>('PUT', `/api/admin/product/model/${created.body.data.id}`, { token: admin, body: { name: 'Mower 1000X Pro' } });
      expect(renamed.body.data.name).toBe('Mower 1000X Pro');
      const list = await server.api<ProductModel[]>('GET', '/api/admin/product/model', { token: operator });
      expect(list.body.data.map((m) => m.code)).toEqual(['ML-1000X', 'ML-500']);
      expect((await auditOf('product.model.update'))[0]).toMatchObject({ targetName: 'ML-1000X', result: 'success' });
    });

    it('lets only administrators change models', async () => {
      const res = await server.api('POST', '/api/admin/product/model', { token: operator, body: { code: 'NOPE', name: 'No' } });
      expect(res.status).toBe(403);
    });
  });

  describe('registration', () => {
    it('registers an SN and shows its secret once; the secret is stored only as a salted hash', async () => {
      const sn = uniqueSn('REG');
      const res = await server.api<{ sn: string; secret: string }>('POST', '/api/admin/product/sn', { token: admin, body: { sn: sn.toLowerCase(), modelId, region: 'Europe', owner: 'anna@example.com' } });
      expect(res.body.data.sn).toBe(sn);
      expect(res.body.data.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const [row] = await server.ctx.db.select().from(devices).where(eq(devices.sn, sn));
      expect(row).toMatchObject({ region: 'europe', owner: 'anna@example.com', enabled: true });
      expect(JSON.stringify(row)).not.toContain(res.body.data.secret);
      expect((await auth(sn, res.body.data.secret)).status).toBe(200);
      const list = await server.api<{ list: SnRecord[] }>('GET', `/api/admin/product/sn?sn=${sn}`, { token: operator });
      expect(JSON.stringify(list.body)).not.toContain(res.body.data.secret);
      expect((await auditOf('product.sn.create')).some((l) => l.targetId === sn)).toBe(true);
    });

    it('refuses a duplicate SN, a malformed SN and an unknown model, in the caller language', async () => {
      const sn = uniqueSn('DUP');
      await registerSn(server, admin, sn, modelId);
      const dup = await server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn, modelId }, lang: EN });
      expect(dup.body).toMatchObject({ code: 42004, msg: `Serial number ${sn} is already registered` });
      const dupZh = await server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn, modelId } });
      expect(dupZh.body.msg).toBe(`序列号 ${sn} 已注册`);
      const bad = await server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn: 'BAD/SN#', modelId } });
      expect(bad.status).toBe(400);
      expect(bad.body.code).toBe(40000);
      const noModel = await server.api('POST', '/api/admin/product/sn', { token: admin, body: { sn: uniqueSn(), modelId: 99999 }, lang: EN });
      expect(noModel.body).toMatchObject({ code: 42001, msg: 'Product model not found' });
      expect((await server.api('POST', '/api/admin/product/sn', { token: operator, body: { sn: uniqueSn(), modelId } })).status).toBe(403);
    });

    it('rotates a secret: the old one stops working, the new one works', async () => {
      const sn = uniqueSn('ROT');
      const old = await registerSn(server, admin, sn, modelId);
      const res = await server.api<{ secret: string }>('POST', `/api/admin/product/sn/${sn}/rotate-secret`, { token: admin });
      expect(res.body.data.secret).not.toBe(old);
      expect((await auth(sn, old)).status).toBe(403);
      expect((await auth(sn, res.body.data.secret)).status).toBe(200);
      expect((await server.api('POST', `/api/admin/product/sn/${uniqueSn()}/rotate-secret`, { token: admin })).body.code).toBe(42003);
      expect((await auditOf('product.sn.rotate-secret')).some((l) => l.targetId === sn)).toBe(true);
    });

    it('disables and enables an SN, recording what changed', async () => {
      const sn = uniqueSn('DIS');
      const secret = await registerSn(server, admin, sn, modelId);
      const off = await server.api<SnRecord>('PUT', `/api/admin/product/sn/${sn}`, { token: admin, body: { enabled: false, remark: 'returned to factory' } });
      expect(off.body.data).toMatchObject({ enabled: false, remark: 'returned to factory' });
      expect((await auth(sn, secret)).status).toBe(403);
      await server.api('PUT', `/api/admin/product/sn/${sn}`, { token: admin, body: { enabled: true } });
      expect((await auth(sn, secret)).status).toBe(200);
      const logs = (await auditOf('product.sn.update')).filter((l) => l.targetId === sn);
      expect(logs[0]?.detail).toEqual({ enabled: { from: true, to: false }, remark: { from: '', to: 'returned to factory' } });
      expect((await server.api('PUT', `/api/admin/product/sn/${sn}`, { token: admin, body: {} })).status).toBe(400);
    });

    it('lists SNs with filters', async () => {
      await registerSn(server, admin, 'LST-0001', modelId, { region: 'asia' });
      await registerSn(server, admin, 'LST-0002', modelId, { region: 'europe', owner: 'bo@example.com' });
      await server.api('PUT', '/api/admin/product/sn/LST-0002', { token: admin, body: { enabled: false } });
      const list = (q: string) => server.api<{ list: SnRecord[]; total: number; totalExact: boolean }>('GET', `/api/admin/product/sn?${q}`, { token: operator });
      expect((await list('sn=lst-')).body.data).toMatchObject({ total: 2, totalExact: true });
      expect((await list('sn=LST-&enabled=false')).body.data.list.map((s) => s.sn)).toEqual(['LST-0002']);
      expect((await list('sn=LST-&region=asia')).body.data.list.map((s) => s.sn)).toEqual(['LST-0001']);
      expect((await list('owner=bo@example.com')).body.data.list[0]).toMatchObject({ sn: 'LST-0002', modelCode: 'ML-500', online: false, enabled: false });
      expect((await list('pageSize=101')).status).toBe(400);
    });
  });

  describe('CSV import', () => {
    it('imports every row in one go, generating secrets where the file has none', async () => {
      const factorySecret = 'f'.repeat(43);
      const csv = ['sn,model,region,owner,remark,secret', 'IMP-0001,ML-500,europe,,"first, batch",', `IMP-0002,ml-500,asia,kim@example.com,,${factorySecret}`, 'IMP-0003,ML-500,,,,', ''].join('\r\n');
      const res = await importCsv(csv);
      expect(res.body.code).toBe(0);
      expect(res.body.data.imported).toBe(3);
      const bySn = new Map(res.body.data.devices.map((d) => [d.sn, d.secret]));
      expect(bySn.get('IMP-0001')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(bySn.get('IMP-0002')).toBeNull();
      expect((await auth('IMP-0002', factorySecret)).status).toBe(200);
      expect((await auth('IMP-0001', bySn.get('IMP-0001')!)).status).toBe(200);
      const [row] = await server.ctx.db.select().from(devices).where(eq(devices.sn, 'IMP-0001'));
      expect(row?.remark).toBe('first, batch');
    });

    it('rejects a file with bad rows with a report, and imports nothing', async () => {
      await registerSn(server, admin, 'BAD-0009', modelId);
      const csv = [
        'sn,model,region,owner,secret',
        'BAD-0001,ML-500,europe,,',
        'BAD-0002,NO-SUCH-MODEL,,,',
        'bad sn!,ML-500,,,',
        'BAD-0001,ML-500,,,',
        'BAD-0004,ML-500,Not A Region,,',
        'BAD-0005,ML-500,,,short',
        'BAD-0006,ML-500',
        'BAD-0009,ML-500,,,',
      ].join('\n');
      const res = await importCsv(csv, admin, EN);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 42005, msg: '7 rows were rejected; nothing was imported' });
      const report = res.body.data as unknown as SnImportReport;
      expect(report.rows).toBe(8);
      expect(report.rejected.map((r) => [r.line, r.reason])).toEqual([
        [3, 'MODEL_UNKNOWN'],
        [4, 'SN_INVALID'],
        [5, 'SN_DUPLICATE'],
        [6, 'REGION_INVALID'],
        [7, 'SECRET_INVALID'],
        [8, 'BAD_COLUMNS'],
        [9, 'SN_EXISTS'],
      ]);
      expect(report.rejected[0]?.message).toBe('Unknown product model');
      const zh = await importCsv(csv);
      expect(zh.body.msg).toBe('7 行数据有误，未导入任何序列号');
      expect((zh.body.data as unknown as SnImportReport).rejected[0]?.message).toBe('产品型号不存在');
      // Line 2 was valid, but nothing of the file went in.
      expect(await server.ctx.db.select().from(devices).where(and(like(devices.sn, 'BAD-%')))).toHaveLength(1);
      expect((await auditOf('product.sn.import')).some((l) => l.result === 'failure')).toBe(true);
    });

    it('refuses files without the required columns or rows, with unknown columns, and from operators', async () => {
      expect((await importCsv('sn\nX-0001', admin, EN)).body).toMatchObject({ code: 42006 });
      expect((await importCsv('sn,model\n', admin)).body.code).toBe(42006);
      expect((await importCsv('sn,model,colour\nX-0001,ML-500,red', admin)).body.code).toBe(40000);
      expect((await importCsv('sn,model\nX-0001,ML-500', operator)).status).toBe(403);
    });

    it('a file of line breaks alone (once four million rows built, 10 s of the event loop) is refused as too large, trailing blank lines are no rows', async () => {
      const breaks = await importCsv(`sn,model\n${'\n'.repeat(3 * 1024 * 1024)}X-0001,ML-500`);
      expect([breaks.status, breaks.body.code]).toEqual([400, errors.SN_IMPORT_TOO_LARGE.code]);
      const trailing = await importCsv(`sn,model\nMW-TRAIL-0001,ML-500${'\r\n'.repeat(20_000)}`);
      expect([trailing.status, trailing.body.code]).toEqual([200, 0]);
    });
  });
});

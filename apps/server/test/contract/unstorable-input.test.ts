import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors } from '@mowerline/contract';
import type { TestServer } from '../harness.ts';
import { startStaffServer } from '../staff/fixtures.ts';

/**
 * Issue 12, item 6: a NUL character (or a lone surrogate) in any string input reached PostgreSQL
 * and failed there as a 500: anonymous sign-in, list filters, the staff and product forms. Now one
 * rule refuses such text in every input with a 400 that names the field, in both languages.
 */
describe('text PostgreSQL cannot store', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startStaffServer();
    admin = await server.login();
  });
  afterAll(() => server?.close());

  const code = errors.UNSTORABLE_TEXT.code;

  it('anonymous sign-in with a NUL in the username: 400 naming the field, in English and Chinese', async () => {
    const body = { username: 'ad\u0000min', password: 'x' };
    const en = await server.api('POST', '/api/admin/user/login', { body, lang: 'en-US' });
    expect(en.status).toBe(400);
    expect(en.body).toMatchObject({ code, status: 'fail' });
    expect(en.body.msg).toBe('Invalid request: body.username contains a character that cannot be stored (NUL or an unpaired surrogate)');
    const zh = await server.api('POST', '/api/admin/user/login', { body, lang: 'zh-CN' });
    expect(zh.body.msg).toContain('body.username 含有无法保存的字符');
  });

  it('a NUL in a list filter (query string) and in a form field', async () => {
    const list = await server.api('GET', '/api/admin/user?keyword=a%00b', { token: admin });
    expect([list.status, list.body.code]).toEqual([400, code]);
    expect(list.body.msg).toContain('query.keyword');
    const model = await server.api('POST', '/api/admin/product/model', { token: admin, body: { code: 'NUL-1', name: 'a\u0000b' } });
    expect([model.status, model.body.code]).toEqual([400, code]);
  });

  it('a NUL in a multipart field (the firmware upload reads its fields itself)', async () => {
    const form = new FormData();
    form.append('modelId', '1');
    form.append('version', '1.0.0\u0000');
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'fw.bin');
    const res = await fetch(`${server.url}/api/admin/product/firmware`, { method: 'POST', headers: { authorization: `Bearer ${admin}` }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code, msg: expect.stringContaining('body.version') });
  });

  it('a lone surrogate, and a NUL in an object key, are refused the same way', async () => {
    const surrogate = await server.api('POST', '/api/admin/product/model', { token: admin, rawBody: '{"code":"SUR-1","name":"a\\ud800b"}' });
    expect([surrogate.status, surrogate.body.code]).toEqual([400, code]);
    const key = await server.api('POST', '/api/admin/product/model', { token: admin, rawBody: '{"code":"KEY-1","name":"n","x\\u0000":1}' });
    expect([key.status, key.body.code]).toEqual([400, code]);
    // A surrogate pair (an emoji) is ordinary text.
    const emoji = await server.api('POST', '/api/admin/product/model', { token: admin, body: { code: 'EMO-1', name: 'Mower 🌱' } });
    expect(emoji.status).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errors, type Page, type WebhookDelivery } from '@mowerline/contract';
import { webhooks } from '../../src/integrations/integrations.sql.ts';
import { checkWebhookUrl, isRefusedAddress } from '../../src/integrations/webhook-url.ts';
import { startServer, type TestServer } from '../harness.ts';
import { waitFor } from '../devices/fixtures.ts';

/**
 * SSRF: with the defaults (https only, no private addresses) a webhook can reach neither the
 * platform's own host nor its network nor the cloud metadata service, by address or by a name that
 * resolves there; checked when the webhook is saved and again before every delivery.
 */
const REFUSED = errors.WEBHOOK_URL_REFUSED.code;

describe('webhook SSRF rules', () => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startServer();
    admin = await server.login();
  });
  afterAll(() => server?.close());

  it.each([
    'https://127.0.0.1/hook',
    'https://10.1.2.3/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[fd00:ec2::254]/latest',
    'https://localhost/hook',
    'http://example.com/hook',
    'https://user:pw@example.com/hook',
  ])('refuses %s at creation', async (url) => {
    const res = await server.api('POST', '/api/admin/webhook', { token: admin, body: { url, events: ['*'] }, lang: 'en-US' });
    expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([400, REFUSED]);
    expect(res.body.msg).toMatch(/^Webhook URL refused: /);
  });

  it('refuses a change of URL to a private address', async () => {
    // Saved as if it had passed; the check is the one under test.
    const [row] = await server.database.db.insert(webhooks).values({ url: 'https://hooks.example.com/in', events: ['*'], secret: 'whsec_AAAA' }).returning({ id: webhooks.id });
    const res = await server.api('PUT', `/api/admin/webhook/${row!.id}`, { token: admin, body: { url: 'https://10.0.0.5/in' } });
    expect(res.body.code).toBe(REFUSED);
  });

  it('checks again at delivery time: a saved URL that now points inside is not contacted', async () => {
    const [row] = await server.database.db.insert(webhooks).values({ url: 'https://127.0.0.1:9/hook', events: ['*'], secret: 'whsec_AAAA' }).returning({ id: webhooks.id });
    const sent = await server.api('POST', `/api/admin/webhook/${row!.id}/test`, { token: admin });
    expect(sent.body.code).toBe(0);
    const log = await waitFor(async () => {
      const page = (await server.api<Page<WebhookDelivery>>('GET', `/api/admin/webhook/${row!.id}/delivery`, { token: admin })).body.data;
      return page.list.find((d) => d.attempts === 1);
    }, 10_000, 'the refused attempt');
    expect(log).toMatchObject({ status: 'pending', responseStatus: null });
    expect(log.error).toMatch(/^refused: .*127\.0\.0\.1/);
  });
});

describe('checkWebhookUrl', () => {
  const rules = { allowHttp: false, allowPrivate: false };

  it('judges a name by every address it resolves to, and connects to the checked one', async () => {
    const mixed = await checkWebhookUrl('https://hooks.example.com/x', rules, async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.0.0.7', family: 4 },
    ]);
    expect(mixed).toMatchObject({ refused: expect.stringContaining('10.0.0.7') });
    const rebound = await checkWebhookUrl('https://hooks.example.com/x', rules, async () => [{ address: '169.254.169.254', family: 4 }]);
    expect('refused' in rebound).toBe(true);
    const fine = await checkWebhookUrl('https://hooks.example.com/x', rules, async () => [{ address: '93.184.216.34', family: 4 }]);
    expect(fine).toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('opens http and private addresses only when configured', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:8080/x', { allowHttp: true, allowPrivate: true })).toMatchObject({ address: '127.0.0.1' });
    expect(await checkWebhookUrl('http://127.0.0.1:8080/x', { allowHttp: true, allowPrivate: false })).toMatchObject({ refused: expect.any(String) });
    expect(await checkWebhookUrl('http://93.184.216.34/x', { allowHttp: false, allowPrivate: false })).toEqual({ refused: 'https only' });
  });

  it('knows the refused ranges', () => {
    for (const a of ['127.0.0.1', '10.9.9.9', '172.16.0.1', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00:ec2::254', '::ffff:10.0.0.1']) {
      expect(isRefusedAddress(a), a).toBe(true);
    }
    for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111']) expect(isRefusedAddress(a), a).toBe(false);
  });
});

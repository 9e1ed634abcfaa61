import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceTopics, otaJobStates } from '@mowerline/contract';
import { subscriberStatus } from '../../src/events/status.ts';
import { ingestOutcomes } from '../../src/metrics/collectors.ts';
import { webhookDeliveryOutcomes } from '../../src/metrics/metrics.ts';
import { startServer, type TestServer } from '../harness.ts';
import { clearRetained, connectDevice, createModel, registerSn, startDeviceServer, uniqueSn, waitFor, type TestDevice } from '../devices/fixtures.ts';
import { labelsOf, scrape, valueOf, type Families } from './scrape.ts';

const TOKEN = 'metrics-token-0123456789abcdef';

/** Label names each metric may carry: a label outside these (an SN, a user) would be unbounded. */
const allowedLabels: Record<string, string[]> = {
  mowerline_devices_connected: ['model'],
  mowerline_devices_online: ['model'],
  mowerline_ingest_messages_total: ['outcome', 'reason'],
  mowerline_ingest_batch_seconds: [],
  mowerline_ingest_backlog: [],
  mowerline_ota_jobs: ['state'],
  mowerline_webhook_deliveries_total: ['outcome'],
  mowerline_events_lag_seconds: ['subscriber'],
  http_request_duration_seconds: ['method', 'route', 'status'],
};

describe('metrics on the main port behind METRICS_TOKEN', () => {
  let server: TestServer;
  let admin: string;
  let modelCode: string;
  let device: TestDevice;
  const url = () => `${server.url}/metrics`;

  beforeAll(async () => {
    server = await startDeviceServer({ config: { metricsToken: TOKEN } });
    admin = await server.login();
    modelCode = `MX${Date.now().toString(36).toUpperCase()}`;
    const modelId = await createModel(server, admin, modelCode);
    const sn = uniqueSn('MET');
    const secret = await registerSn(server, admin, sn, modelId);
    device = await connectDevice(server, sn, secret);
  });
  afterAll(async () => {
    await device?.end();
    await server?.close();
    await clearRetained();
  });

  it('refuses a scrape without the token or with a wrong one (401)', async () => {
    expect((await scrape(url())).status).toBe(401);
    expect((await scrape(url(), 'wrong-token-0123456789abcdef')).status).toBe(401);
    const res = await fetch(url(), { headers: { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('counts real device telemetry and exposes every metric with bounded labels', async () => {
    await device.telemetry();
    await device.telemetry({ battery: 70 });
    // A malformed message: dropped, and said why.
    await device.publish(deviceTopics.telemetry, '{not json');
    // A request to a route with a parameter, and one to a URL no route has.
    const detail = await server.api('GET', `/api/admin/device/${device.sn}`, { token: admin });
    expect(detail.status).toBe(200);
    expect((await fetch(`${server.url}/no-such-page/${device.sn}`)).status).toBe(404);

    const { families, contentType } = await waitFor(
      async () => {
        const s = await scrape(url(), TOKEN);
        const persisted = valueOf(s.families, 'mowerline_ingest_messages_total', { outcome: 'persisted' }) ?? 0;
        const badJson = valueOf(s.families, 'mowerline_ingest_messages_total', { outcome: 'dropped', reason: 'invalid_json' }) ?? 0;
        // The online status and two telemetry messages.
        return persisted >= 3 && badJson >= 1 && s;
      },
      15_000,
      'the device messages in the metrics',
    );
    expect(contentType).toMatch(/^text\/plain; version=0\.0\.4/);

    for (const [name, labels] of Object.entries(allowedLabels)) {
      const family = families.get(name);
      expect(family, name).toBeDefined();
      for (const [label, value] of labelsOf(family)) {
        expect(labels, `${name} label ${label}`).toContain(label);
        expect(value, `${name}{${label}}`).not.toContain(device.sn);
      }
    }
    // Nothing anywhere names the device.
    for (const family of families.values()) for (const [, value] of labelsOf(family)) expect(value).not.toContain(device.sn);

    expect(valueOf(families, 'mowerline_devices_connected', { model: modelCode })).toBe(1);
    expect(valueOf(families, 'mowerline_devices_online', { model: modelCode })).toBe(1);
    expect(families.get('mowerline_ingest_batch_seconds')?.type).toBe('histogram');
    expect(valueOf(families, 'mowerline_ingest_batch_seconds')).toBeGreaterThan(0);
    expect(valueOf(families, 'mowerline_ingest_backlog')).toBeGreaterThanOrEqual(0);
    expect(new Set(labelsOf(families.get('mowerline_ota_jobs')).map(([, v]) => v))).toEqual(new Set(otaJobStates));
    expect(new Set(labelsOf(families.get('mowerline_webhook_deliveries_total')).map(([, v]) => v))).toEqual(new Set(webhookDeliveryOutcomes));
    const subscribers = (await subscriberStatus(server.ctx.db)).map((s) => s.name);
    expect(new Set(labelsOf(families.get('mowerline_events_lag_seconds')).map(([, v]) => v))).toEqual(new Set(subscribers));
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(families.get(name), name).toBeDefined();
    }

    // The route template, never the URL; every unknown URL under one value.
    const routes = new Set(labelsOf(families.get('http_request_duration_seconds')).filter(([k]) => k === 'route').map(([, v]) => v));
    expect(routes).toContain('/api/admin/device/:sn');
    expect(routes).toContain('unmatched');
    expect(valueOf(families, 'http_request_duration_seconds', { method: 'GET', route: '/api/admin/device/:sn', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(families, 'http_request_duration_seconds', { method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('counts webhook deliveries the webhooks feature reports', async () => {
    server.ctx.metrics.countWebhookDelivery('success');
    server.ctx.metrics.countWebhookDelivery('timeout');
    server.ctx.metrics.countWebhookDelivery('timeout');
    const { families } = await scrape(url(), TOKEN);
    expect(valueOf(families, 'mowerline_webhook_deliveries_total', { outcome: 'success' })).toBe(1);
    expect(valueOf(families, 'mowerline_webhook_deliveries_total', { outcome: 'timeout' })).toBe(2);
    expect(valueOf(families, 'mowerline_webhook_deliveries_total', { outcome: 'refused' })).toBe(0);
  });
});

describe('metrics on METRICS_PORT', () => {
  let open: TestServer;
  let guarded: TestServer;
  beforeAll(async () => {
    // Two servers in one process at once: each has its own registry.
    [open, guarded] = await Promise.all([startServer({ config: { metricsPort: 0 } }), startServer({ config: { metricsPort: 0, metricsToken: TOKEN } })]);
  });
  afterAll(async () => {
    await Promise.all([open?.close(), guarded?.close()]);
  });
  const metricsUrl = (s: TestServer, path = '/metrics') => `http://127.0.0.1:${s.ctx.metrics.listenerPort}${path}`;

  it('serves the metrics on their own port, and not on the main port', async () => {
    expect(open.ctx.metrics.listenerPort).toBeGreaterThan(0);
    expect(open.ctx.metrics.listenerPort).not.toBe(guarded.ctx.metrics.listenerPort);
    const { status, families } = await scrape(metricsUrl(open));
    expect(status).toBe(200);
    expect(families.get('mowerline_ingest_messages_total')?.type).toBe('counter');
    expect(families.get('process_cpu_user_seconds_total')).toBeDefined();
    expect((await fetch(`${open.url}/metrics`)).status).toBe(404);
    expect((await fetch(metricsUrl(open, '/other'))).status).toBe(404);
  });

  it("counts one server's requests in its own registry only", async () => {
    const healthChecks = (families: Families) =>
      valueOf(families, 'http_request_duration_seconds', { method: 'GET', route: '/api/health', status: '200' }) ?? 0;
    const guardedBefore = healthChecks((await scrape(metricsUrl(guarded), TOKEN)).families);
    const openBefore = healthChecks((await scrape(metricsUrl(open))).families);
    await open.api('GET', '/api/health');
    await open.api('GET', '/api/health');
    expect(healthChecks((await scrape(metricsUrl(open))).families)).toBe(openBefore + 2);
    expect(healthChecks((await scrape(metricsUrl(guarded), TOKEN)).families)).toBe(guardedBefore);
  });

  it('requires the token on the metrics port when one is set', async () => {
    expect((await scrape(metricsUrl(guarded))).status).toBe(401);
    expect((await scrape(metricsUrl(guarded), 'wrong-token-0123456789abcdef')).status).toBe(401);
    expect((await scrape(metricsUrl(guarded), TOKEN)).status).toBe(200);
    // With a metrics port, the main port never serves them, token or not.
    expect((await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('closes the listener when the server stops', async () => {
    const server = await startServer({ config: { metricsPort: 0 } });
    const url = metricsUrl(server);
    expect((await scrape(url)).status).toBe(200);
    await server.close();
    expect(server.ctx.metrics.listenerPort).toBeNull();
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('metrics off', () => {
  it('answers 404 without METRICS_PORT and METRICS_TOKEN', async () => {
    const server = await startServer();
    try {
      expect(server.ctx.metrics.listenerPort).toBeNull();
      expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});

describe('ingest outcomes', () => {
  it('maps the gateway counters to persisted and bounded drop reasons', () => {
    const totals = ingestOutcomes({
      'written.telemetry': 5,
      'written.status': 2,
      'written.events': 1,
      'dropped.limited.telemetry': 3,
      'dropped.limited.events': 1,
      'dropped.rejected.status': 1,
      'dropped.unknownDevice': 2,
      'dropped.somethingNew': 7,
      'received.telemetry': 100,
    });
    expect(totals.get('persisted')).toBe(8);
    expect(totals.get('rate_limited')).toBe(4);
    expect(totals.get('rejected_by_database')).toBe(1);
    expect(totals.get('unknown_device')).toBe(2);
    expect(totals.get('other')).toBe(7);
    expect(totals.get('invalid_json')).toBe(0);
    expect([...totals.keys()]).not.toContain('received.telemetry');
  });
});

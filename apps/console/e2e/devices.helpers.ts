import { randomBytes } from 'node:crypto';
import { deviceTopics, PROTOCOL_VERSION, type EventPayload, type Telemetry } from '@mowerline/contract';
import type { TestServer } from '../../server/test/harness.ts';
import { connectDevice, createModel, registerSn, type TestDevice } from '../../server/test/devices/fixtures.ts';
import { startConsoleServer } from './harness.ts';

export { waitFor } from '../../server/test/devices/fixtures.ts';

/** The console server with the embedded broker, writing telemetry quickly (tests wait on it). */
export function startDeviceConsoleServer(): Promise<TestServer> {
  return startConsoleServer({ telemetryFlushMs: 50 });
}

export interface Mower extends TestDevice {
  secret: string;
}

/** A product model straight through the API. */
export function model(server: TestServer, token: string, code: string): Promise<number> {
  return createModel(server, token, code);
}

/** Registers an SN and connects a real MQTT client for it that reports `telemetry` once. */
export async function mower(
  server: TestServer,
  token: string,
  modelId: number,
  sn: string,
  telemetry: Partial<Telemetry>,
  registry: { region?: string; owner?: string } = {},
): Promise<Mower> {
  const secret = await registerSn(server, token, sn, modelId, registry);
  const device = await connectDevice(server, sn, secret);
  await device.telemetry(telemetry);
  return Object.assign(device, { secret });
}

/** A fault report as the protocol wants it. */
export async function raise(device: TestDevice, code: string, severity: EventPayload['severity'], message: string): Promise<void> {
  await device.publish(deviceTopics.events, {
    v: PROTOCOL_VERSION,
    id: randomBytes(8).toString('hex'),
    ts: Date.now(),
    code,
    severity,
    message,
    context: { zone: 'front lawn' },
  } satisfies EventPayload);
}

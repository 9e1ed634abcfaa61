import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../harness.ts';

// Only the embedded broker has a port of its own; with TEST_MQTT_URL the server is a client of Mosquitto.
describe.runIf(!process.env.TEST_MQTT_URL)('embedded broker port', () => {
  let blocker: Server;
  let taken: number;
  beforeAll(async () => {
    blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    taken = (blocker.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())));

  it('moves to a free port when the default port is taken', async () => {
    const server = await startServer({ config: { mqttPort: taken, mqttPortExplicit: false, mqttHost: '127.0.0.1' } });
    try {
      const { tcpPort } = server.ctx.gateway.endpoints();
      expect(tcpPort).toBeGreaterThan(0);
      expect(tcpPort).not.toBe(taken);
    } finally {
      await server.close();
    }
  });

  it('refuses to start, naming the port, when a port the operator chose is taken', async () => {
    await expect(startServer({ config: { mqttPort: taken, mqttPortExplicit: true, mqttHost: '127.0.0.1' } })).rejects.toThrow(
      `MQTT port ${taken} is already in use`,
    );
  });
});

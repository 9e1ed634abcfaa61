/**
 * The ingest baseline: the broker alone delivering the fleet's messages to a plain subscriber that
 * only counts them. `aedes` runs the broker the server embeds (same persistence), with its
 * subscriber inside the broker as the server's LocalBus is; `external` only subscribes to a
 * running broker (Mosquitto) with the server's options (MQTT 5, shared subscription, QoS 1).
 */
import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { deviceTopics, TOPIC_ROOT } from '@mowerline/contract';
import { IndexedRetainedPersistence } from '../../apps/server/src/gateway/retained-index.ts';

const opts = JSON.parse(process.env.BENCH_BROKER ?? '{}') as { externalUrl?: string };
const filters = [deviceTopics.telemetry, deviceTopics.events, deviceTopics.status].map((s) => `${TOPIC_ROOT}/+/${s}`);

const telemetrySuffix = `/${deviceTopics.telemetry}`;
let telemetry = 0;
const count = (topic: string) => {
  if (topic.endsWith(telemetrySuffix)) telemetry++;
};

let url = opts.externalUrl;
let broker: Aedes | undefined;
let client: mqtt.MqttClient | undefined;
if (!url) {
  broker = await Aedes.createBroker({ persistence: new IndexedRetainedPersistence() });
  const tcp = createServer((socket) => broker!.handle(socket));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  for (const f of filters) {
    await new Promise<void>((resolve) =>
      broker!.subscribe(
        f,
        (packet, done) => {
          count(packet.topic);
          done();
        },
        resolve,
      ),
    );
  }
} else {
  client = await mqtt.connectAsync(url, { clientId: `mowerline-bench-baseline-${process.pid}`, protocolVersion: 5, clean: true, properties: { receiveMaximum: 65_535 } });
  client.on('message', count);
  await client.subscribeAsync(
    filters.map((f) => `$share/mowerline-bench/${f}`),
    { qos: 1 },
  );
}

process.send!({ type: 'ready', url: '', mqttUrl: url });
process.on('message', (m: { id: number; type: 'usage' | 'stop' }) => {
  if (m.type === 'usage') {
    process.send!({ type: 'reply', id: m.id, data: { rss: process.memoryUsage().rss, heapUsed: 0, cpu: process.cpuUsage(), counters: { 'received.telemetry': telemetry }, pending: 0 } });
  } else {
    void (client?.endAsync() ?? Promise.resolve()).finally(() => {
      broker?.close();
      process.send!({ type: 'reply', id: m.id, data: null });
      process.exit(0);
    });
  }
});

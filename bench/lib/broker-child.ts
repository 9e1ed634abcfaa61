/**
 * The ingest baseline: the broker alone delivering the fleet's messages to a plain subscriber that
 * only counts them. `aedes` runs the same broker the server embeds, with its subscriber in the same
 * process over loopback (as the server's own client is); `external` only subscribes to a running
 * broker (Mosquitto) with the server's options (MQTT 5, shared subscription, QoS 1).
 */
import { createServer, type AddressInfo } from 'node:net';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { deviceTopics, TOPIC_ROOT } from '@mowerline/contract';

const opts = JSON.parse(process.env.BENCH_BROKER ?? '{}') as { externalUrl?: string };
const filters = [deviceTopics.telemetry, deviceTopics.events, deviceTopics.status].map((s) => `${TOPIC_ROOT}/+/${s}`);

let url = opts.externalUrl;
let broker: Aedes | undefined;
if (!url) {
  broker = await Aedes.createBroker();
  const tcp = createServer((socket) => broker!.handle(socket));
  await new Promise<void>((r) => tcp.listen(0, '127.0.0.1', r));
  url = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
}
const external = !!opts.externalUrl;
const client = await mqtt.connectAsync(url, {
  clientId: `mowerline-bench-baseline-${process.pid}`,
  protocolVersion: external ? 5 : 4,
  clean: true,
  properties: external ? { receiveMaximum: 65_535 } : undefined,
});
const telemetrySuffix = `/${deviceTopics.telemetry}`;
let telemetry = 0;
client.on('message', (topic) => {
  if (topic.endsWith(telemetrySuffix)) telemetry++;
});
await client.subscribeAsync(
  filters.map((f) => (external ? `$share/mowerline-bench/${f}` : f)),
  { qos: 1 },
);

process.send!({ type: 'ready', url: '', mqttUrl: url });
process.on('message', (m: { id: number; type: 'usage' | 'stop' }) => {
  if (m.type === 'usage') {
    process.send!({ type: 'reply', id: m.id, data: { rss: process.memoryUsage().rss, heapUsed: 0, cpu: process.cpuUsage(), counters: { 'received.telemetry': telemetry }, pending: 0 } });
  } else {
    void client.endAsync().finally(() => {
      broker?.close();
      process.send!({ type: 'reply', id: m.id, data: null });
      process.exit(0);
    });
  }
});

import type { MqttClient } from 'mqtt';
import { commandRequestSchema, deviceTopic, deviceTopics } from '@mowerline/contract';
import { ShellHost, type ShellHostOptions, type ShellTransport } from './host.ts';
import { MowerShell } from './mower-shell.ts';
import type { MowerView } from './mower-view.ts';

/** The shell's transport over a device's own MQTT connection (QoS 1 both ways). */
export function mqttShellTransport(client: MqttClient): ShellTransport {
  return {
    publish: (topic, payload) => void client.publish(topic, payload, { qos: 1 }),
    subscribe: async (topic) => void (await client.subscribeAsync(topic, { qos: 1 })),
    unsubscribe: async (topic) => void (await client.unsubscribeAsync(topic)),
  };
}

/**
 * The hook the simulator calls for each mower: a ShellHost running the mower shell on that mower's
 * state. The simulator passes it every `cmd/req` whose name `host.handles()` (answering on
 * `cmd/res` with what `handleCommand` returns) and every message on a shell topic.
 */
export function mowerShellHost(client: MqttClient, mower: MowerView, opts: Omit<ShellHostOptions, 'program'> = {}): ShellHost {
  return new ShellHost(mower.sn, mqttShellTransport(client), { ...opts, program: (args) => new MowerShell(mower, args.user) });
}

/**
 * For a device without a command router of its own: answers `shell.open` on `cmd/req` and routes
 * shell input. Returns the way to detach.
 */
export async function attachShell(client: MqttClient, host: ShellHost): Promise<() => void> {
  const cmdTopic = deviceTopic(host.sn, deviceTopics.cmdReq);
  const onMessage = (topic: string, payload: Buffer) => {
    if (host.handleMessage(topic, payload)) return;
    if (topic !== cmdTopic) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      return;
    }
    const parsed = commandRequestSchema.safeParse(json);
    if (!parsed.success) return;
    const req = parsed.data;
    if (!host.handles(req.name) || req.deadline < Date.now()) return;
    void host.handleCommand(req).then((res) => client.publish(deviceTopic(host.sn, deviceTopics.cmdRes), JSON.stringify(res), { qos: 1 }));
  };
  client.on('message', onMessage);
  await client.subscribeAsync(cmdTopic, { qos: 1 });
  return () => {
    client.off('message', onMessage);
    host.closeAll('shell detached');
  };
}

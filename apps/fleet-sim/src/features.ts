import type { Mower, MowerExtension } from './mower.ts';
import { OtaAgent, type OtaKnobs } from './ota.ts';
import { ShellHost } from './shell/host.ts';
import { MowerShell } from './shell/mower-shell.ts';

/** The remote shell (docs/device-protocol.md, "Remote shell") running the mower shell on this mower. */
export function shellFeature(mower: Mower): MowerExtension {
  const host = new ShellHost(mower.sn, mower.transport(), { program: (args) => new MowerShell(mower, args.user) });
  return {
    handles: (name) => host.handles(name),
    handleCommand: (req) => host.handleCommand(req),
    handleMessage: (topic, payload) => host.handleMessage(topic, payload),
    onDisconnect: (reason) => host.closeAll(reason),
  };
}

/** Firmware and voice-pack updates (docs/device-protocol.md, "OTA"), verified with the platform's public key. */
export function otaFeature(mower: Mower, publicKeyPem: string, knobs?: OtaKnobs): MowerExtension {
  const agent = new OtaAgent(
    {
      sn: mower.sn,
      firmware: () => mower.firmware(),
      publish: (suffix, payload) => mower.publish(suffix, payload),
      reboot: (firmware) => mower.reboot(0, firmware),
      powerCut: async () => mower.dropConnection(300),
    },
    publicKeyPem,
    knobs,
  );
  return {
    handles: (name) => agent.handles(name),
    handleCommand: (req) => agent.handleCommand(req),
    onConnect: () => agent.onBoot(),
    otaStatus: () => agent.status(),
  };
}

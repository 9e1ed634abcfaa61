#!/usr/bin/env -S node --import tsx
import { parseArgs } from 'node:util';
import { ApiClient } from './api-client.ts';
import { startAppUsers, type AppUsers } from './app-users.ts';
import { startFleet } from './fleet.ts';

const usage = `Usage: mowerline-fleet-sim --url <platform URL> --mqtt <broker URL> [options]

  --url <url>            the platform's HTTP address (registers the SNs through its admin API)
  --mqtt <url>           where the mowers connect: mqtt://, mqtts://, ws:// or wss://
  --count <n>            number of mowers (default 50)
  --username <name>      staff account that registers the SNs (default admin); its password is
                         read from MOWERLINE_PASSWORD, or give an access token in MOWERLINE_TOKEN
  --prefix <SN prefix>   SNs are <prefix>000001… (default SIM)
  --seed <n>             same seed, same fleet (default 1)
  --time-scale <x>       simulated seconds per real second (default 1)
  --faults-per-hour <n>  random faults per mower per hour of mowing (default 0.5)
  --secrets-file <path>  keeps the mowers' secrets between runs (default ./fleet-secrets.json)
  --connect-rate <n>     new connections per second while starting (default 200)
  --telemetry-interval-ms <n>  telemetry period of every mower (default 5000; load tests go lower)
  --ota-public-key <pem file>  the platform's OTA signing key, to accept updates
  --app-users            also play the mowers' owners through the platform's mobile-app API:
                         they sign up, are confirmed by the staff account (support's confirm
                         action), bind their mowers with the pairing codes, share some, and keep
                         signing in and editing their profiles (password kept in
                         <secrets-file>-app-users.json). Sign-ups go through the public
                         form, limited per address (FORM_LIMIT_PER_IP an hour): for more
                         owners than that, raise it on the platform
  --app-visit-seconds <n>  mean seconds between one owner's visits to the app (default 600)
`;

async function main() {
  const { values } = parseArgs({
    options: {
      url: { type: 'string' },
      mqtt: { type: 'string' },
      count: { type: 'string', default: '50' },
      username: { type: 'string', default: 'admin' },
      prefix: { type: 'string', default: 'SIM' },
      seed: { type: 'string', default: '1' },
      'time-scale': { type: 'string', default: '1' },
      'faults-per-hour': { type: 'string', default: '0.5' },
      'secrets-file': { type: 'string', default: 'fleet-secrets.json' },
      'connect-rate': { type: 'string', default: '200' },
      'telemetry-interval-ms': { type: 'string' },
      'ota-public-key': { type: 'string' },
      'app-users': { type: 'boolean', default: false },
      'app-visit-seconds': { type: 'string', default: '600' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help || !values.url || !values.mqtt) {
    process.stdout.write(usage);
    process.exit(values.help ? 0 : 2);
  }
  // Secrets come from the environment, never from the command line (visible to every user in ps).
  const token = process.env.MOWERLINE_TOKEN;
  const password = process.env.MOWERLINE_PASSWORD;
  if (!token && !password) {
    console.error('Set MOWERLINE_PASSWORD (for --username) or MOWERLINE_TOKEN.');
    process.exit(2);
  }
  const { readFileSync } = await import('node:fs');
  const fleet = await startFleet({
    count: Number(values.count),
    apiUrl: values.url,
    mqttUrl: values.mqtt,
    token,
    credentials: password ? { username: values.username!, password } : undefined,
    snPrefix: values.prefix,
    seed: Number(values.seed),
    timeScale: Number(values['time-scale']),
    faultsPerHour: Number(values['faults-per-hour']),
    secretsFile: values['secrets-file'],
    connectRate: Number(values['connect-rate']),
    telemetryIntervalMs: values['telemetry-interval-ms'] ? Number(values['telemetry-interval-ms']) : undefined,
    otaPublicKeyPem: values['ota-public-key'] ? readFileSync(values['ota-public-key'], 'utf8') : undefined,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  let owners: AppUsers | undefined;
  if (values['app-users']) {
    let adminToken = token;
    if (!adminToken) {
      const api = new ApiClient(values.url, undefined);
      await api.signIn(values.username!, password!);
      adminToken = api.accessToken;
    }
    owners = await startAppUsers({
      apiUrl: values.url,
      gardens: fleet.gardens,
      pairingCodes: fleet.pairingCodes,
      adminToken,
      secretsFile: values['secrets-file']!.replace(/(\.json)?$/, '-app-users.json'),
      seed: Number(values.seed),
      visitEverySeconds: Number(values['app-visit-seconds']),
      log: (line) => process.stdout.write(`${line}\n`),
    });
  }
  const report = setInterval(() => process.stdout.write(`fleet: ${fleet.connected()}/${fleet.mowers.length} connected\n`), 30_000);
  const stop = async () => {
    await owners?.stop();
    clearInterval(report);
    await fleet.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});

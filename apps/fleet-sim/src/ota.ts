import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import {
  commandErrorCodes,
  OTA_PROGRESS_TOPIC,
  OTA_START_COMMAND,
  otaManifest,
  otaStartArgsSchema,
  PROTOCOL_VERSION,
  type CommandRequest,
  type CommandResponse,
  type OtaProgress,
  type OtaStartArgs,
} from '@mowerline/contract';

/**
 * The device side of OTA (docs/device-protocol.md, "OTA"), as a mower's firmware would do it:
 * accept `ota.start`, download over HTTP with Range resume into "flash", verify SHA-256 and the
 * platform's Ed25519 signature, install, reboot into the new version and report it. Knobs make it
 * fail the ways real devices fail.
 */

/** What the agent needs from the mower it lives in. */
export interface OtaHost {
  readonly sn: string;
  firmware(): string;
  /** Publishes on one of the device's own upstream topics (suffix under `…/{sn}/`); false while offline. */
  publish(suffix: string, payload: object): Promise<boolean>;
  /** Restarts the device: offline, new connection; the host calls `agent.onBoot()` once connected again. */
  reboot(newFirmware: string | undefined): Promise<void>;
  /** Cuts the power: the connection drops without a clean disconnect, the device comes back later. */
  powerCut(): Promise<void>;
}

export interface OtaKnobs {
  /** This device fails at INSTALLING (INSTALL_FAILED). */
  failInstall?: boolean;
  /** Loses power once when the download reaches this fraction (0–1); resumes from the byte offset after boot. */
  powerLossAt?: number;
  /** Flips a byte of the download, so verification fails (SHA256_MISMATCH). */
  corrupt?: boolean;
  /** Time spent "flashing" (ms). */
  installMs?: number;
}

/** Survives a power cut or a reboot, like a device's non-volatile storage. */
export interface OtaFlash {
  /** The job being worked on, with the bytes downloaded so far (keyed by the image's SHA-256). */
  job?: { args: OtaStartArgs; data: Buffer[]; received: number };
  /** Set before rebooting into a new image; reported as SUCCESS after the boot. */
  pending?: { jobId: string; version: string; kind: OtaStartArgs['kind']; language: string };
  voice: Record<string, string>;
}

export interface DownloadRecord {
  range: string | null;
  status: number;
}

const REPORT_EVERY_PERCENT = 10;
/** Download attempts (with growing pauses, about a minute in all) before the device gives up. */
const DOWNLOAD_ATTEMPTS = 30;

export class OtaAgent {
  readonly flash: OtaFlash = { voice: {} };
  /** Every HTTP request the agent made (tests read the Range headers). */
  readonly downloads: DownloadRecord[] = [];
  /** Every image this device booted into after an install. */
  readonly installs: string[] = [];
  private readonly publicKey: KeyObject;
  private running: Promise<void> | undefined;
  /** Reports made while offline, sent after the next connect (a real device keeps them in flash). */
  private unsent: object[] = [];
  private lastState = 'DOWNLOADING';
  private poweredLoss = false;

  constructor(
    private readonly host: OtaHost,
    publicKeyPem: string,
    readonly knobs: OtaKnobs = {},
  ) {
    this.publicKey = createPublicKey(publicKeyPem);
  }

  handles(name: string): boolean {
    return name === OTA_START_COMMAND;
  }

  /** What the agent is doing, for the mower shell's `ota status`. */
  status(): { state: string; version: string | null; progress: number | null } {
    const job = this.flash.job;
    if (this.flash.pending) return { state: 'REBOOTING', version: this.flash.pending.version, progress: 100 };
    if (!job) return { state: 'IDLE', version: null, progress: null };
    return { state: this.running ? this.lastState : 'INTERRUPTED', version: job.args.version, progress: Math.floor((job.received * 100) / job.args.size) };
  }

  /** `ota.start`: answer at once; the work runs in the background and reports on `…/ota/progress`. */
  async handleCommand(req: CommandRequest): Promise<CommandResponse> {
    const fail = (code: string, message: string): CommandResponse => ({ v: PROTOCOL_VERSION, id: req.id, ok: false, error: { code, message } });
    const parsed = otaStartArgsSchema.safeParse(req.args);
    if (!parsed.success) return fail(commandErrorCodes.badArgs, parsed.error.issues[0]?.message ?? 'bad arguments');
    const args = parsed.data;
    if (this.installed(args) === args.version) return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { accepted: true, state: 'SUCCESS' } };
    const current = this.flash.job;
    if (current && this.running) {
      // A retry of the image already on its way (same SHA-256) takes over the job; anything else waits.
      if (current.args.sha256 !== args.sha256) return fail(commandErrorCodes.busy, `busy with ${current.args.version}`);
      current.args = args;
      return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { accepted: true } };
    }
    const keep = current && current.args.sha256 === args.sha256 ? current : undefined;
    this.flash.job = { args, data: keep?.data ?? [], received: keep?.received ?? 0 };
    this.run();
    return { v: PROTOCOL_VERSION, id: req.id, ok: true, result: { accepted: true } };
  }

  /** After every boot: report the image that just booted, or resume a download the power cut stopped. */
  async onBoot(): Promise<void> {
    const unsent = this.unsent.splice(0);
    for (const report of unsent) await this.send(report);
    const pending = this.flash.pending;
    if (pending) {
      this.flash.pending = undefined;
      this.installs.push(pending.version);
      if (pending.kind === 'voice') this.flash.voice[pending.language] = pending.version;
      await this.report(pending.jobId, { state: 'SUCCESS', version: pending.version });
      return;
    }
    if (this.flash.job && !this.running && this.flash.job.args.urlExpiresAt > Date.now()) this.run();
  }

  private installed(args: OtaStartArgs): string {
    return args.kind === 'firmware' ? this.host.firmware() : (this.flash.voice[args.language] ?? '');
  }

  private run() {
    this.running = this.work()
      .catch(() => {})
      .finally(() => {
        this.running = undefined;
      });
  }

  private async work(): Promise<void> {
    const job = this.flash.job!;
    const complete = await this.download(job);
    if (!complete) return;
    const { args } = job;
    const image = Buffer.concat(job.data);
    if (this.knobs.corrupt) image[image.length >> 1] = (image[image.length >> 1] ?? 0) ^ 0xff;
    await this.report(args.jobId, { state: 'DOWNLOADED' });
    const failed = (reason: string, message: string) => {
      this.flash.job = undefined;
      return this.report(args.jobId, { state: 'FAILED', reason, message });
    };
    if (image.length !== args.size) return failed('SIZE_MISMATCH', `${image.length} bytes, expected ${args.size}`);
    if (createHash('sha256').update(image).digest('hex') !== args.sha256) return failed('SHA256_MISMATCH', 'image hash does not match');
    const manifest = otaManifest({ kind: args.kind, model: args.model, language: args.language, version: args.version, size: args.size, sha256: args.sha256 });
    if (!verify(null, Buffer.from(manifest), this.publicKey, Buffer.from(args.signature, 'base64'))) return failed('SIGNATURE_INVALID', 'signature does not verify');
    await this.report(args.jobId, { state: 'VERIFIED' });
    await this.report(args.jobId, { state: 'INSTALLING' });
    await sleep(this.knobs.installMs ?? 50);
    if (this.knobs.failInstall) return failed('INSTALL_FAILED', 'flash write verify error');
    this.flash.job = undefined;
    this.flash.pending = { jobId: args.jobId, version: args.version, kind: args.kind, language: args.language };
    await this.host.reboot(args.kind === 'firmware' ? args.version : undefined);
  }

  /** Downloads the rest of the image with Range requests; false when the power went (the job stays in flash). */
  private async download(job: NonNullable<OtaFlash['job']>): Promise<boolean> {
    let lastReported = -1;
    for (let attempt = 0; attempt < DOWNLOAD_ATTEMPTS && job.received < job.args.size && job.args.urlExpiresAt > Date.now(); attempt++) {
      const { args } = job;
      const headers: Record<string, string> = {};
      if (job.received > 0) {
        headers.range = `bytes=${job.received}-`;
        headers['if-range'] = `"${args.sha256}"`;
      }
      const abort = new AbortController();
      try {
        const res = await fetch(args.url, { headers, signal: abort.signal });
        this.downloads.push({ range: headers.range ?? null, status: res.status });
        if (res.status === 200 && job.received > 0) {
          job.data = [];
          job.received = 0;
        } else if (res.status !== 200 && res.status !== 206) {
          await res.body?.cancel();
          throw new Error(`HTTP ${res.status}`);
        }
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          job.data.push(Buffer.from(chunk));
          job.received += chunk.length;
          const pct = Math.min(100, Math.floor((job.received * 100) / args.size));
          if (pct >= lastReported + REPORT_EVERY_PERCENT || (pct === 100 && lastReported < 100)) {
            lastReported = pct - (pct % REPORT_EVERY_PERCENT);
            await this.report(args.jobId, { state: 'DOWNLOADING', progress: pct });
          }
          const lossAt = this.knobs.powerLossAt;
          if (lossAt !== undefined && !this.poweredLoss && job.received >= args.size * lossAt && job.received < args.size) {
            this.poweredLoss = true;
            abort.abort();
            await this.host.powerCut();
            return false;
          }
        }
      } catch {
        // A dropped connection: try again from the byte offset reached.
        await sleep(Math.min(3000, 100 * 2 ** attempt));
      }
    }
    if (job.received < job.args.size) {
      this.flash.job = undefined;
      await this.report(job.args.jobId, { state: 'FAILED', reason: 'DOWNLOAD_FAILED', message: 'download did not complete' });
      return false;
    }
    return true;
  }

  private report(jobId: string, body: Omit<OtaProgress, 'v' | 'jobId' | 'ts'>): Promise<void> {
    this.lastState = body.state;
    return this.send({ v: PROTOCOL_VERSION, jobId, ts: Date.now(), ...body });
  }

  private async send(report: object): Promise<void> {
    const sent = await this.host.publish(OTA_PROGRESS_TOPIC, report).catch(() => false);
    if (!sent) this.unsent.push(report);
  }
}

function sleep(ms: number) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

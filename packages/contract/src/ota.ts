import { z } from 'zod';
import { commandIdSchema, epochMsSchema, firmwareVersionSchema, PROTOCOL_VERSION } from './device-protocol.ts';

/**
 * Over-the-air updates on the device protocol (docs/device-protocol.md, "OTA"). The platform starts
 * a job with the `ota.start` command on the generic command channel; the device answers at once
 * (accepted or not) and then reports every step on its own upstream topic `…/ota/progress`.
 */
export const OTA_START_COMMAND = 'ota.start';
/** Upstream topic suffix (device → platform) of OTA progress reports. */
export const OTA_PROGRESS_TOPIC = 'ota/progress';

export const artifactKinds = ['firmware', 'voice'] as const;
export type ArtifactKind = (typeof artifactKinds)[number];

/** What a device reports, in order; SUCCESS and FAILED end a job. */
export const otaDeviceStates = ['DOWNLOADING', 'DOWNLOADED', 'VERIFIED', 'INSTALLING', 'SUCCESS', 'FAILED'] as const;
export type OtaDeviceState = (typeof otaDeviceStates)[number];

/**
 * A job on the platform: QUEUED (waiting for its phase, the rate limit, the window or the device
 * coming online), SENT (command accepted), then the device's states; SKIPPED (nothing to do: already
 * current, below the minimum version, or a newer target exists) and CANCELLED end it without a device.
 */
export const otaJobStates = ['QUEUED', 'SENT', ...otaDeviceStates, 'SKIPPED', 'CANCELLED'] as const;
export type OtaJobState = (typeof otaJobStates)[number];
export const finishedJobStates: readonly OtaJobState[] = ['SUCCESS', 'FAILED', 'SKIPPED', 'CANCELLED'];

/** Why a job failed or was skipped (device codes plus the platform's own). */
export const otaReasons = [
  'DOWNLOAD_FAILED',
  'SHA256_MISMATCH',
  'SIGNATURE_INVALID',
  'SIZE_MISMATCH',
  'INSTALL_FAILED',
  'BOOT_FAILED',
  'LOW_BATTERY',
  'BUSY',
  'TIMEOUT',
  'REJECTED',
  'ALREADY_CURRENT',
  'BELOW_MIN_VERSION',
  'NEWER_TARGET',
  'SUPERSEDED',
  'CAMPAIGN_CANCELLED',
] as const;
export type OtaReason = (typeof otaReasons)[number];

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);
const base64 = z.string().regex(/^[A-Za-z0-9+/]+={0,2}$/).max(200);

/** `ota.start` arguments: where to fetch the artifact and how to check it. */
export const otaStartArgsSchema = z.object({
  jobId: commandIdSchema,
  kind: z.enum(artifactKinds),
  model: z.string().max(32),
  /** Voice packs: the language of the pack (BCP 47); '' for firmware. */
  language: z.string().max(16),
  version: firmwareVersionSchema,
  /** Short-lived signed HTTPS URL; supports `Range` so a download resumes where it stopped. */
  url: z.string().max(2048),
  urlExpiresAt: epochMsSchema,
  size: z.number().int().min(1),
  sha256: sha256Hex,
  /** Ed25519 signature (base64) of `otaManifest(...)` with the platform key. */
  signature: base64,
});
export type OtaStartArgs = z.infer<typeof otaStartArgsSchema>;

/** The `ota.start` result: accepted, or the device is already on that version. */
export const otaStartResultSchema = z.object({ accepted: z.boolean(), state: z.enum(otaDeviceStates).optional() });

/** `…/ota/progress`, device → platform, QoS 1. */
export const otaProgressSchema = z.object({
  v: z.literal(PROTOCOL_VERSION),
  jobId: commandIdSchema,
  ts: epochMsSchema,
  state: z.enum(otaDeviceStates),
  /** Download progress 0–100 while DOWNLOADING. */
  progress: z.number().int().min(0).max(100).optional(),
  /** FAILED only: why. */
  reason: z.string().regex(/^[A-Z][A-Z0-9_]{1,47}$/).optional(),
  message: z.string().max(500).optional(),
  /** SUCCESS only: the version now running (after the reboot). */
  version: firmwareVersionSchema.optional(),
});
export type OtaProgress = z.infer<typeof otaProgressSchema>;

/**
 * The text the platform signs (Ed25519) and the device verifies: binds the image's SHA-256 and size
 * to what it is, so a valid image of another model or version cannot be replayed.
 */
export function otaManifest(a: { kind: ArtifactKind; model: string; language: string; version: string; size: number; sha256: string }): string {
  return ['mowerline-ota-v1', a.kind, a.model, a.language, a.version, String(a.size), a.sha256].join('\n');
}

/** Semantic-version order (pre-releases before their release); `''` (unknown) sorts first. */
export function compareVersions(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return -1;
  if (b === '') return 1;
  const split = (v: string) => {
    const [core = '', pre = ''] = v.split('+')[0]!.split(/-(.*)/s);
    return { nums: core.split('.').map((n) => Number(n) || 0), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.nums[i] ?? 0) - (y.nums[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === '') return 1;
  if (y.pre === '') return -1;
  return x.pre < y.pre ? -1 : 1;
}

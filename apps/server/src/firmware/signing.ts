import { createHash, createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign, timingSafeEqual, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

export interface OtaSigner {
  /** Ed25519 signature (base64) of a manifest (contract `otaManifest`). */
  sign(manifest: string): string;
  publicKey(): { algorithm: 'Ed25519'; publicKeyPem: string; publicKeyRaw: string; fingerprint: string };
}

/**
 * The platform's artifact-signing key: FIRMWARE_SIGNING_KEY (PKCS#8 PEM) when set, else generated
 * once into DATA_DIR/ota-signing-key.pem like the JWT secret. Loaded on first use, so a server that
 * never touches OTA needs no writable DATA_DIR.
 */
export function createSigner(config: Config): OtaSigner {
  let key: KeyObject | undefined;
  const privateKey = () => (key ??= loadKey(config));
  return {
    sign: (manifest) => sign(null, Buffer.from(manifest, 'utf8'), privateKey()).toString('base64'),
    publicKey() {
      const pub = createPublicKey(privateKey());
      const pem = pub.export({ type: 'spki', format: 'pem' }).toString();
      // The last 32 bytes of the SPKI DER are the raw Ed25519 key.
      const raw = pub.export({ type: 'spki', format: 'der' }).subarray(-32);
      return { algorithm: 'Ed25519', publicKeyPem: pem, publicKeyRaw: raw.toString('base64'), fingerprint: createHash('sha256').update(raw).digest('hex') };
    },
  };
}

function loadKey(config: Config): KeyObject {
  if (config.firmwareSigningKey) return createPrivateKey(config.firmwareSigningKey.replace(/\\n/g, '\n'));
  const file = path.join(config.dataDir, 'ota-signing-key.pem');
  if (existsSync(file)) return createPrivateKey(readFileSync(file, 'utf8'));
  mkdirSync(config.dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(file, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return privateKey;
}

/**
 * Short-lived download links: `?sn=&exp=&sig=` where sig = HMAC-SHA256 over artifact id, SN and
 * expiry with a key derived from the JWT secret. No session needed: a device has no staff token.
 */
export function createUrlSigner(config: Config) {
  const secret = createHmac('sha256', config.jwtSecret).update('mowerline-ota-download-url').digest();
  const mac = (artifactId: number, sn: string, exp: number) => createHmac('sha256', secret).update(`${artifactId}\n${sn}\n${exp}`).digest('base64url');
  return {
    url(artifactId: number, sn: string): { url: string; expiresAt: number } {
      const exp = Math.floor(Date.now() / 1000) + config.otaUrlTtlSeconds;
      const query = new URLSearchParams({ sn, exp: String(exp), sig: mac(artifactId, sn, exp) });
      return { url: `${config.publicUrl}/api/ota/download/${artifactId}?${query}`, expiresAt: exp * 1000 };
    },
    verify(artifactId: number, sn: string, exp: number, sig: string): boolean {
      if (!Number.isFinite(exp) || exp * 1000 < Date.now()) return false;
      const want = Buffer.from(mac(artifactId, sn, exp));
      const got = Buffer.from(sig);
      return want.length === got.length && timingSafeEqual(want, got);
    },
  };
}
export type UrlSigner = ReturnType<typeof createUrlSigner>;

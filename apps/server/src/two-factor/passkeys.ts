import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { staffFactors } from './two-factor.sql.ts';

/**
 * Passkeys and security keys (WebAuthn, `@simplewebauthn/server`). The relying party is
 * WEBAUTHN_RP_ID (default: PUBLIC_URL's host); the browser's origin must be one of
 * WEBAUTHN_ORIGINS, or, for the development RP id `localhost`, any localhost port.
 */
const RP_NAME = 'Mowerline';

function originAllowed(ctx: AppContext, origin: string): boolean {
  if (ctx.config.webauthnOrigins.includes(origin)) return true;
  return ctx.config.webauthnRpId === 'localhost' && /^https?:\/\/localhost(:\d+)?$/.test(origin);
}

/** The origin the browser signed for, when it is one we accept (the library then checks it matches). */
function expectedOrigin(ctx: AppContext, response: { response: { clientDataJSON: string } }): string {
  try {
    const origin = String((JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8')) as { origin?: unknown }).origin);
    return originAllowed(ctx, origin) ? origin : ctx.config.webauthnOrigins[0]!;
  } catch {
    return ctx.config.webauthnOrigins[0]!;
  }
}

async function activeCredentials(ctx: AppContext, userId: number) {
  return ctx.db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), eq(staffFactors.kind, 'webauthn'), isNotNull(staffFactors.activatedAt)));
}

export async function hasPasskey(ctx: AppContext, userId: number): Promise<boolean> {
  return (await activeCredentials(ctx, userId)).length > 0;
}

const transportsOf = (row: { transports: string }) => (row.transports ? row.transports.split(',') : undefined) as AuthenticatorTransport[] | undefined;
type AuthenticatorTransport = 'ble' | 'cable' | 'hybrid' | 'internal' | 'nfc' | 'smart-card' | 'usb';

/** Creation options for a new passkey; the challenge is kept on the pending factor row. */
export async function passkeyRegistration(ctx: AppContext, userId: number, username: string, name: string) {
  const existing = await activeCredentials(ctx, userId);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: ctx.config.webauthnRpId,
    userName: username,
    userID: new TextEncoder().encode(`staff-${userId}`),
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credentialId!, transports: transportsOf(c) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  return { options, challenge: options.challenge, name };
}

/** Verifies the browser's registration response against the stored challenge; the credential to keep, or null. */
export async function verifyPasskeyRegistration(ctx: AppContext, challenge: string, response: RegistrationResponseJSON) {
  const result = await verifyRegistrationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: expectedOrigin(ctx, response),
    expectedRPID: ctx.config.webauthnRpId,
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified || !result.registrationInfo) return null;
  const { credential } = result.registrationInfo;
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    counter: credential.counter,
    transports: (credential.transports ?? []).join(','),
  };
}

/** Request options for the user's passkeys; the caller stores the challenge. */
export async function passkeyRequest(ctx: AppContext, userId: number) {
  const credentials = await activeCredentials(ctx, userId);
  return generateAuthenticationOptions({
    rpID: ctx.config.webauthnRpId,
    allowCredentials: credentials.map((c) => ({ id: c.credentialId!, transports: transportsOf(c) })),
    userVerification: 'preferred',
  });
}

/** Verifies an assertion by one of the user's passkeys and advances its signature counter; true when it holds. */
export async function verifyPasskeyAssertion(ctx: AppContext, userId: number, challenge: string, response: AuthenticationResponseJSON): Promise<boolean> {
  const [row] = (await activeCredentials(ctx, userId)).filter((c) => c.credentialId === response.id);
  if (!row) return false;
  const result = await verifyAuthenticationResponse({
    response,
    expectedChallenge: challenge,
    expectedOrigin: expectedOrigin(ctx, response),
    expectedRPID: ctx.config.webauthnRpId,
    credential: { id: row.credentialId!, publicKey: new Uint8Array(Buffer.from(row.publicKey!, 'base64url')), counter: row.counter, transports: transportsOf(row) },
    requireUserVerification: false,
  }).catch(() => null);
  if (!result?.verified) return false;
  await ctx.db.update(staffFactors).set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() }).where(eq(staffFactors.id, row.id));
  return true;
}

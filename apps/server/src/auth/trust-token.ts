import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SECURITY_TOKEN_HEADER } from '@mowerline/contract';

/**
 * The browser trust token (`security_token`, docs/api.md): proof that this browser signed in as
 * `username` before. It only lets that browser skip the captcha for that username; lock-out,
 * the password and the account status still apply, so a stolen one buys an attacker nothing
 * beyond solving captchas. It is a signed JWT, never stored server-side.
 */
const TRUST_TTL_SECONDS = 90 * 24 * 3600;

interface TrustClaims {
  purpose: 'trust';
  username: string;
}

export function issueTrustToken(app: FastifyInstance, username: string): string {
  const claims: TrustClaims = { purpose: 'trust', username: username.toLowerCase() };
  return app.jwt.sign(claims, { expiresIn: TRUST_TTL_SECONDS });
}

/** The username a request's `X-Security-Token` vouches for, if it carries a valid one. */
export function trustedUsername(app: FastifyInstance, request: FastifyRequest): string | undefined {
  const header = request.headers[SECURITY_TOKEN_HEADER.toLowerCase()];
  if (typeof header !== 'string' || header.length === 0 || header.length > 2048) return undefined;
  try {
    const claims = app.jwt.verify<Partial<TrustClaims>>(header);
    return claims.purpose === 'trust' && typeof claims.username === 'string' ? claims.username : undefined;
  } catch {
    return undefined;
  }
}

/** Data of a 401: a renewed trust token when the request carried a valid one, so the browser stays trusted. */
export function notSignedInData(app: FastifyInstance, request: FastifyRequest): { security_token: string } | null {
  const username = trustedUsername(app, request);
  return username ? { security_token: issueTrustToken(app, username) } : null;
}

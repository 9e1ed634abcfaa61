import * as OTPAuth from 'otpauth';
import { expect } from 'vitest';
import type { LoginResult, RecoveryCodes, SecondFactorChallenge, TotpEnrolment } from '@mowerline/contract';
import type { ApiResponse, TestServer } from '../harness.ts';
import { totpCode, TOTP_PERIOD } from '../../src/two-factor/totp.ts';

/** The current code of a base32 secret, `stepsAhead` steps later (each sign-in needs a fresh step). */
export const codeOf = (secret: string, stepsAhead = 0) => totpCode(OTPAuth.Secret.fromBase32(secret), Date.now() + stepsAhead * TOTP_PERIOD * 1000);

/** Enrols an authenticator app for the signed-in caller; returns its secret and the recovery codes. */
export async function enrolTotp(server: TestServer, token: string): Promise<{ secret: string; recoveryCodes: string[] | null; factorId: number }> {
  const start = await server.api<TotpEnrolment>('POST', '/api/admin/user/two-factor/totp', { token, body: { name: 'Phone' } });
  expect(start.body.code, JSON.stringify(start.body)).toBe(0);
  const { factorId, secret } = start.body.data;
  const confirm = await server.api<RecoveryCodes>('POST', '/api/admin/user/two-factor/totp/confirm', { token, body: { factorId, code: codeOf(secret) } });
  expect(confirm.body.code, JSON.stringify(confirm.body)).toBe(0);
  return { secret, recoveryCodes: confirm.body.data.recoveryCodes, factorId };
}

/** The password step: for an account with a factor, the SECOND_FACTOR_REQUIRED answer's challenge. */
export async function passwordStep(server: TestServer, username: string, password: string, headers: Record<string, string> = {}, lang?: string) {
  return server.api<SecondFactorChallenge>('POST', '/api/admin/user/login', { body: { username, password }, headers, lang });
}

export function secondStep(server: TestServer, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<ApiResponse<LoginResult>> {
  return server.api<LoginResult>('POST', '/api/admin/user/login/second-factor', { body, headers });
}

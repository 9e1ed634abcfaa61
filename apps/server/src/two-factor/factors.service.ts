import type { FastifyRequest } from 'fastify';
import { and, eq, isNotNull, isNull, lt, sql } from 'drizzle-orm';
import QRCode from 'qrcode';
import type { Locale, Role, TotpEnrolment, TwoFactorStatus } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { Db } from '../db/client.ts';
import { AppError, localeOf } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { hashRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.ts';
import { newTotpSecret, secretBox, totpUri, verifyTotp } from './totp.ts';
import { passkeyRegistration, verifyPasskeyAssertion, verifyPasskeyRegistration } from './passkeys.ts';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { recoveryCodes, secondFactorChallenges, staffFactors } from './two-factor.sql.ts';

/** A proof of the second factor, as a sign-in, a step-up or enrolment sends it. */
export interface Proof {
  totp?: string;
  recoveryCode?: string;
  /** A passkey assertion, and the challenge it must answer (kept server-side with the sign-in or step-up). */
  webauthn?: unknown;
  webauthnChallenge?: string | null;
}

export async function hasActiveFactor(db: Db, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: staffFactors.id })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), isNotNull(staffFactors.activatedAt)))
    .limit(1);
  return !!row;
}

export const mustHaveFactor = (ctx: AppContext, role: Role) => ctx.config.require2faRoles.includes(role);

export async function factorStatus(ctx: AppContext, userId: number, role: Role, stepUpAt: Date | null): Promise<TwoFactorStatus> {
  const factors = await ctx.db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), isNotNull(staffFactors.activatedAt)))
    .orderBy(staffFactors.id);
  const [left] = await ctx.db
    .select({ n: sql<number>`count(*)::int` })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  const until = stepUpAt ? new Date(stepUpAt.getTime() + ctx.config.stepUpMs) : null;
  return {
    factors: factors.map((f) => ({ id: f.id, kind: f.kind, name: f.name, createdAt: f.createdAt.toISOString(), lastUsedAt: f.lastUsedAt?.toISOString() ?? null })),
    recoveryCodesLeft: left?.n ?? 0,
    required: mustHaveFactor(ctx, role),
    stepUpUntil: until && until.getTime() > Date.now() ? until.toISOString() : null,
  };
}

/** A pending TOTP factor: its secret is returned here once, then only ever kept sealed. */
export async function startTotp(ctx: AppContext, userId: number, username: string, name?: string): Promise<TotpEnrolment> {
  // Abandoned enrolments of this user go: one pending factor at a time.
  await ctx.db.delete(staffFactors).where(and(eq(staffFactors.userId, userId), isNull(staffFactors.activatedAt)));
  const secret = newTotpSecret();
  const [row] = await ctx.db
    .insert(staffFactors)
    .values({ userId, kind: 'totp', name: name ?? 'Authenticator', secret: secretBox(ctx.config.jwtSecret).seal(secret) })
    .returning({ id: staffFactors.id });
  const uri = totpUri(secret, username);
  const qr = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(uri, { type: 'svg', margin: 1 })).toString('base64')}`;
  return { factorId: row!.id, secret, uri, qr };
}

/** Replaces the user's recovery codes with new ones, returned in clear this once. */
async function issueRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await db.transaction(async (tx) => {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashRecoveryCode(code) })));
  });
  return codes;
}

/** Activates a pending TOTP factor with its first code; the first factor brings recovery codes. */
export async function confirmTotp(ctx: AppContext, request: FastifyRequest, userId: number, factorId: number, code: string): Promise<string[] | null> {
  const [factor] = await ctx.db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.id, factorId), eq(staffFactors.userId, userId), isNull(staffFactors.activatedAt)))
    .limit(1);
  if (!factor) throw new AppError('FACTOR_NOT_FOUND');
  const step = verifyTotp(secretBox(ctx.config.jwtSecret).open(factor.secret), code, factor.lastStep);
  if (step === null) throw new AppError('SECOND_FACTOR_INVALID');
  const first = !(await hasActiveFactor(ctx.db, userId));
  await ctx.db.update(staffFactors).set({ activatedAt: new Date(), lastStep: step }).where(eq(staffFactors.id, factorId));
  await mailUser(ctx, userId, 'factor-added', localeOf(request), factor.name);
  return first ? issueRecoveryCodes(ctx.db, userId) : null;
}

/** A pending passkey: the browser's creation options; the challenge waits on the factor row. */
export async function startPasskey(ctx: AppContext, userId: number, username: string, name?: string) {
  await ctx.db.delete(staffFactors).where(and(eq(staffFactors.userId, userId), isNull(staffFactors.activatedAt)));
  const { options, challenge } = await passkeyRegistration(ctx, userId, username, name ?? 'Passkey');
  const [row] = await ctx.db
    .insert(staffFactors)
    .values({ userId, kind: 'webauthn', name: name ?? 'Passkey', secret: challenge })
    .returning({ id: staffFactors.id });
  return { factorId: row!.id, options: options as unknown as Record<string, unknown> };
}

/** Activates a pending passkey with the browser's registration response; the first factor brings recovery codes. */
export async function confirmPasskey(ctx: AppContext, request: FastifyRequest, userId: number, factorId: number, response: unknown): Promise<string[] | null> {
  const [factor] = await ctx.db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.id, factorId), eq(staffFactors.userId, userId), eq(staffFactors.kind, 'webauthn'), isNull(staffFactors.activatedAt)))
    .limit(1);
  if (!factor) throw new AppError('FACTOR_NOT_FOUND');
  const credential = await verifyPasskeyRegistration(ctx, factor.secret, response as RegistrationResponseJSON);
  if (!credential) throw new AppError('SECOND_FACTOR_INVALID');
  const first = !(await hasActiveFactor(ctx.db, userId));
  await ctx.db.update(staffFactors).set({ ...credential, secret: '', activatedAt: new Date() }).where(eq(staffFactors.id, factorId));
  await mailUser(ctx, userId, 'factor-added', localeOf(request), factor.name);
  return first ? issueRecoveryCodes(ctx.db, userId) : null;
}

/** The proofs an account can give: its factor kinds, and recovery codes once it has any factor. */
export async function proofKindsOf(db: Db, userId: number): Promise<('totp' | 'webauthn' | 'recovery')[]> {
  const rows = await db
    .select({ kind: staffFactors.kind })
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), isNotNull(staffFactors.activatedAt)));
  const kinds = new Set(rows.map((r) => r.kind));
  return [...(['totp', 'webauthn'] as const).filter((k) => kinds.has(k)), ...(kinds.size > 0 ? (['recovery'] as const) : [])];
}

export async function regenerateRecoveryCodes(ctx: AppContext, userId: number): Promise<string[]> {
  if (!(await hasActiveFactor(ctx.db, userId))) throw new AppError('FACTOR_NOT_FOUND');
  return issueRecoveryCodes(ctx.db, userId);
}

/** Removes one factor; with the last one the recovery codes go too (they back up a factor). */
export async function removeFactor(ctx: AppContext, request: FastifyRequest, userId: number, factorId: number): Promise<string> {
  const [gone] = await ctx.db
    .delete(staffFactors)
    .where(and(eq(staffFactors.id, factorId), eq(staffFactors.userId, userId)))
    .returning({ name: staffFactors.name, activatedAt: staffFactors.activatedAt });
  if (!gone) throw new AppError('FACTOR_NOT_FOUND');
  if (!(await hasActiveFactor(ctx.db, userId))) await ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  if (gone.activatedAt) await mailUser(ctx, userId, 'factor-removed', localeOf(request), gone.name);
  return gone.name;
}

/** An admin's reset of someone else's factors: all of them, the recovery codes and open sign-in challenges. */
export async function resetFactors(ctx: AppContext, request: FastifyRequest, userId: number): Promise<number> {
  const gone = await ctx.db.delete(staffFactors).where(eq(staffFactors.userId, userId)).returning({ id: staffFactors.id });
  await ctx.db.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
  await ctx.db.delete(secondFactorChallenges).where(eq(secondFactorChallenges.userId, userId));
  await mailUser(ctx, userId, 'factors-reset', localeOf(request), '');
  return gone.length;
}

/**
 * Checks a proof against the user's factors and spends it: a TOTP step is remembered so the same
 * code cannot be used twice, a recovery code is marked used. Returns which kind was used, or null.
 */
export async function spendProof(ctx: AppContext, userId: number, proof: Proof): Promise<'totp' | 'recovery' | 'webauthn' | null> {
  if (proof.webauthn !== undefined) {
    if (!proof.webauthnChallenge) return null;
    return (await verifyPasskeyAssertion(ctx, userId, proof.webauthnChallenge, proof.webauthn as AuthenticationResponseJSON)) ? 'webauthn' : null;
  }
  if (proof.recoveryCode !== undefined) {
    const [used] = await ctx.db
      .update(recoveryCodes)
      .set({ usedAt: new Date() })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, hashRecoveryCode(proof.recoveryCode)), isNull(recoveryCodes.usedAt)))
      .returning({ id: recoveryCodes.id });
    return used ? 'recovery' : null;
  }
  if (proof.totp === undefined) return null;
  const factors = await ctx.db
    .select()
    .from(staffFactors)
    .where(and(eq(staffFactors.userId, userId), eq(staffFactors.kind, 'totp'), isNotNull(staffFactors.activatedAt)));
  const box = secretBox(ctx.config.jwtSecret);
  for (const factor of factors) {
    const step = verifyTotp(box.open(factor.secret), proof.totp, factor.lastStep);
    if (step === null) continue;
    // Compare-and-set on lastStep: two requests racing with the same code cannot both pass.
    const [won] = await ctx.db
      .update(staffFactors)
      .set({ lastStep: step, lastUsedAt: new Date() })
      .where(and(eq(staffFactors.id, factor.id), lt(staffFactors.lastStep, step)))
      .returning({ id: staffFactors.id });
    if (won) return 'totp';
  }
  return null;
}

async function mailUser(ctx: AppContext, userId: number, template: 'factor-added' | 'factor-removed' | 'factors-reset', locale: Locale, factor: string) {
  const [user] = await ctx.db.select({ name: staffUsers.name, email: staffUsers.email }).from(staffUsers).where(eq(staffUsers.id, userId)).limit(1);
  if (!user?.email) return;
  const link = `${ctx.config.publicUrl}/#/user/center`;
  await ctx.mailer.send({ to: user.email, template, params: { name: user.name, factor, link }, locale });
}

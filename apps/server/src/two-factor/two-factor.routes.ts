import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { twoFactorApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';
import { staffUsers } from '../staff/staff.sql.ts';
import { confirmPasskey, confirmTotp, factorStatus, regenerateRecoveryCodes, removeFactor, resetFactors, startPasskey, startTotp } from './factors.service.ts';
import { finishSignIn, passkeyOptionsFor, stepUpPasskeyOptions } from './second-factor.service.ts';
import { listSessions, revokeSessions } from './sessions.service.ts';
import { stepUp } from './step-up.service.ts';

/** Second factors, the second sign-in step, step-up and sessions (contract endpoints/two-factor.ts). */
export async function twoFactorRoutes(app: FastifyInstance, ctx: AppContext) {
  const staffTarget = async (id: number) => {
    const [row] = await ctx.db.select({ id: staffUsers.id, username: staffUsers.username }).from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  };

  serve(app, ctx, twoFactorApi, {
    loginSecondFactor: ({ request, body }) => finishSignIn(app, ctx, request, body),

    loginWebauthnOptions: ({ body }) => passkeyOptionsFor(ctx, body.challengeId),

    webauthnStart: ({ request, body }) => {
      const me = principal(request);
      return startPasskey(ctx, me.id, me.username, body?.name);
    },

    webauthnConfirm: async ({ request, body, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username, detail: { kind: 'webauthn', factorId: body.factorId } });
      return { recoveryCodes: await confirmPasskey(ctx, request, me.id, body.factorId, body.response) };
    },

    stepUpWebauthnOptions: ({ request }) => stepUpPasskeyOptions(ctx, principal(request).id),

    status: async ({ request }) => {
      const me = principal(request);
      return factorStatus(ctx, me.id, me.role, me.stepUpAt);
    },

    totpStart: ({ request, body }) => {
      const me = principal(request);
      return startTotp(ctx, me.id, me.username, body?.name);
    },

    totpConfirm: async ({ request, body, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username, detail: { kind: 'totp', factorId: body.factorId } });
      return { recoveryCodes: await confirmTotp(ctx, request, me.id, body.factorId, body.code) };
    },

    removeFactor: async ({ request, params, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username, detail: { factorId: params.id } });
      const name = await removeFactor(ctx, request, me.id, params.id);
      audit({ detail: { name } });
      return null;
    },

    regenerateRecoveryCodes: async ({ request, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username });
      return { recoveryCodes: await regenerateRecoveryCodes(ctx, me.id) };
    },

    stepUp: async ({ request, body, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username });
      const { stepUpUntil, method } = await stepUp(ctx, request, me, body);
      audit({ detail: { method } });
      return { stepUpUntil };
    },

    mySessions: ({ request }) => {
      const me = principal(request);
      return listSessions(ctx, me.id, me.sessionId);
    },

    revokeMySession: async ({ request, params, audit }) => {
      const me = principal(request);
      audit({ targetType: 'session', targetId: params.sid, targetName: me.username });
      return { revoked: await revokeSessions(ctx, me.id, { sid: params.sid }) };
    },

    revokeOtherSessions: async ({ request, audit }) => {
      const me = principal(request);
      const revoked = await revokeSessions(ctx, me.id, { keep: me.sessionId });
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username, detail: { revoked, others: true } });
      return { revoked };
    },

    staffSessions: async ({ request, params }) => {
      const target = await staffTarget(params.id);
      return listSessions(ctx, target.id, principal(request).sessionId);
    },

    revokeStaffSession: async ({ params, audit }) => {
      const target = await staffTarget(params.id);
      audit({ targetType: 'staff', targetId: target.id, targetName: target.username, detail: { session: params.sid } });
      return { revoked: await revokeSessions(ctx, target.id, { sid: params.sid }) };
    },

    resetStaffFactors: async ({ request, params, audit }) => {
      const target = await staffTarget(params.id);
      audit({ targetType: 'staff', targetId: target.id, targetName: target.username });
      // One's own factors go only through removal, which needs a fresh second-factor confirmation.
      if (target.id === principal(request).id) throw new AppError('SELF_CHANGE');
      const removed = await resetFactors(ctx, request, target.id);
      audit({ detail: { removed } });
      return null;
    },
  });
}

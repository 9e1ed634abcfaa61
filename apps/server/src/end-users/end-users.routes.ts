import type { FastifyInstance, FastifyRequest } from 'fastify';
import { appUserApi, endUserApi } from '@mowerline/contract';
import { backgroundRunner } from '../auth/background.ts';
import type { AppContext } from '../context.ts';
import { CommandError } from '../gateway/commands.ts';
import { serve } from '../http/endpoints.ts';
import { AppError } from '../http/envelope.ts';
import {
  changePassword,
  findUserByEmail,
  forgotPassword,
  getUser,
  login,
  mailCode,
  register,
  requestDeletion,
  resetPassword,
  toProfile,
  updateProfile,
  verify,
} from './accounts.service.ts';
import {
  cancelEndUserDeletion,
  confirmEndUser,
  disableEndUser,
  enableEndUser,
  endUserDetail,
  exportEndUsers,
  listEndUsers,
  sendResetToEndUser,
} from './admin.service.ts';
import { requireAppMailAllowed } from './app-form-limits.ts';
import { tellSessionEnded } from './session-reuse.ts';
import { appUser, refreshAppSession, revokeAppSession } from './app-session.ts';
import { appDevices, bind, requireLink, revoke, share, unbind } from './binding.service.ts';
import { usersByCity, usersByCountry } from './distribution.service.ts';
import { exportUserLog, listUserLog, recentUserLog, trackUserAction, writeUserLog, type UserLogEntry } from './user-log.service.ts';

const csvName = (what: string) => `${what}-${new Date().toISOString().slice(0, 19).replace(/[-:T]/g, '')}.csv`;

/**
 * The mobile app's API (`/api/app/v1`) and what staff see of its users. Every app-user action
 * leaves a user-log row, success or failure; staff actions are audited in the system log.
 */
export function endUserRoutes(app: FastifyInstance, ctx: AppContext) {
  const background = backgroundRunner(app);

  const track = <T>(request: FastifyRequest, entry: Omit<UserLogEntry, 'result'>, work: (note: (more: Partial<UserLogEntry>) => void) => Promise<T>) =>
    trackUserAction(ctx, request, entry, work);

  serve(app, ctx, appUserApi, {
    register: ({ body, request, reply }) =>
      track(request, { action: 'register', email: body.email.toLowerCase(), country: body.country }, async (note) => {
        const { userId, existing, result, mail } = await register(ctx, body, () => requireAppMailAllowed(ctx, request, reply, 'register', body.email));
        note({ userId, ...(existing ? { detail: { existingAccount: true } } : {}) });
        // After the answer, for a new account and an existing one alike: the mail server's time must not tell them apart.
        background('app register mail', async () => void (await mail()));
        return result;
      }),

    verify: ({ body, request }) =>
      track(request, { action: 'verify', email: body.email.toLowerCase() }, async (note) => {
        const user = await findUserByEmail(ctx, body.email);
        note({ userId: user?.id ?? null, country: user?.country });
        await verify(ctx, body.email, body.code);
        return null;
      }),

    resendCode: async ({ body, request, reply }) => {
      await requireAppMailAllowed(ctx, request, reply, 'resend', body.email);
      // In the background: the answer must not tell whether the account exists.
      background('resend verification code', async () => {
        const user = await findUserByEmail(ctx, body.email);
        if (user?.status === 'unverified') await mailCode(ctx, user, 'verify');
      });
      return null;
    },

    login: ({ body, request }) =>
      track(request, { action: 'login', email: body.email.toLowerCase() }, async (note) => {
        const known = await findUserByEmail(ctx, body.email);
        note({ userId: known?.id ?? null, country: known?.country });
        const { user, tokens, cancelledDeletion } = await login(app, ctx, request, body.email, body.password);
        if (cancelledDeletion) await writeUserLog(ctx, request, { action: 'delete.cancel', result: 'success', userId: user.id, email: user.email, country: user.country, detail: { by: 'login' } });
        return tokens;
      }),

    refresh: async ({ body, request }) =>
      (
        await refreshAppSession(app, ctx, body.refresh_token, (ended) =>
          background('reused refresh token notice', () => tellSessionEnded(ctx, request, ended)),
        )
      ).tokens,

    logout: ({ request }) =>
      track(request, { action: 'logout' }, async () => {
        await revokeAppSession(ctx.db, appUser(request).sessionId);
        return null;
      }),

    forgotPassword: async ({ body, request, reply }) => {
      await requireAppMailAllowed(ctx, request, reply, 'forgot', body.email);
      background('app forgot password', async () => {
        const user = await forgotPassword(ctx, body.email);
        await writeUserLog(ctx, request, { action: 'password.forgot', result: user ? 'success' : 'failure', userId: user?.id ?? null, email: body.email.toLowerCase(), country: user?.country });
      });
      return null;
    },

    resetPassword: ({ body, request }) =>
      track(request, { action: 'password.reset', email: body.email.toLowerCase() }, async (note) => {
        const user = await findUserByEmail(ctx, body.email);
        note({ userId: user?.id ?? null, country: user?.country });
        await resetPassword(ctx, body.email, body.code, body.newPassword);
        return null;
      }),

    getProfile: async ({ request }) => toProfile(await getUser(ctx, appUser(request).id)),

    updateProfile: ({ body, request }) =>
      track(request, { action: 'profile.update', detail: { fields: Object.keys(body) } }, async () => (await updateProfile(ctx, appUser(request).id, body)).after),

    changePassword: ({ body, request }) =>
      track(request, { action: 'password.change' }, async (note) => {
        const user = appUser(request);
        note({ detail: { sessionsEnded: await changePassword(ctx, user.id, user.sessionId, body.oldPassword, body.newPassword) } });
        return null;
      }),

    deleteAccount: ({ body, request }) =>
      track(request, { action: 'delete.request' }, async (note) => {
        const deletionAt = await requestDeletion(ctx, appUser(request).id, body.password);
        note({ detail: { deletionAt: deletionAt.toISOString() } });
        return { deletionAt: deletionAt.toISOString() };
      }),

    exportData: ({ request }) =>
      track(request, { action: 'export' }, async () => {
        const id = appUser(request).id;
        return {
          exportedAt: new Date().toISOString(),
          profile: toProfile(await getUser(ctx, id)),
          devices: await appDevices(ctx.db, id),
          activity: await recentUserLog(ctx.db, id, 1000),
        };
      }),

    listDevices: ({ request }) => appDevices(ctx.db, appUser(request).id),

    bind: ({ body, request }) => track(request, { action: 'bind', sn: body.sn }, () => bind(ctx, appUser(request), body.sn, body.pairingCode)),

    unbind: ({ params, request }) =>
      track(request, { action: 'unbind', sn: params.sn }, async (note) => {
        note({ detail: { role: await unbind(ctx.db, appUser(request).id, params.sn) } });
        return null;
      }),

    share: ({ params, body, request }) =>
      track(request, { action: 'share', sn: params.sn, detail: { email: body.email.toLowerCase() } }, async () => {
        const owner = appUser(request);
        const { device, target, added } = await share(ctx, owner, params.sn, body.email);
        if (added) {
          background('share mail', async () => {
            await ctx.mailer.send({ to: target.email, template: 'app-device-shared', params: { name: target.name, owner: owner.name, sn: params.sn }, locale: target.locale as 'zh-CN' | 'en-US' });
          });
        }
        return device;
      }),

    revoke: ({ params, body, request }) =>
      track(request, { action: 'revoke', sn: params.sn, detail: { email: body.email.toLowerCase() } }, () => revoke(ctx, appUser(request).id, params.sn, body.email)),

    command: ({ params, body, request }) =>
      track(request, { action: 'command', sn: params.sn, detail: { name: body.name } }, async () => {
        await requireLink(ctx.db, appUser(request).id, params.sn);
        try {
          return { ok: true, result: await ctx.gateway.sendCommand(params.sn, body.name, {}, 10_000) };
        } catch (err) {
          if (!(err instanceof CommandError)) throw err;
          if (err.reason === 'offline') throw new AppError('DEVICE_OFFLINE', { sn: params.sn });
          if (err.reason === 'timeout') throw new AppError('DEVICE_COMMAND_TIMEOUT', { sn: params.sn, timeoutMs: err.timeoutMs });
          if (err.reason === 'unavailable') throw new AppError('GATEWAY_UNAVAILABLE');
          return { ok: false, error: err.message };
        }
      }),
  });

  serve(app, ctx, endUserApi, {
    list: ({ query }) => listEndUsers(ctx.db, query),

    exportCsv: async ({ query, reply, audit }) => {
      audit({ targetType: 'endUser', detail: { filter: query } });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvName('end-users')}"`)
        .send(exportEndUsers(ctx.db, query));
    },

    log: ({ query }) => listUserLog(ctx.db, query),

    logExport: async ({ query, reply, audit }) => {
      audit({ targetType: 'userLog', detail: { filter: query } });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${csvName('user-log')}"`)
        .send(exportUserLog(ctx.db, query));
    },

    detail: ({ params }) => endUserDetail(ctx.db, ctx, params.id),

    confirm: async ({ params, audit }) => {
      audit({ targetType: 'endUser', targetId: params.id });
      const { user, after } = await confirmEndUser(ctx, params.id);
      audit({ targetName: user.email });
      return after;
    },

    disable: async ({ params, body, audit }) => {
      audit({ targetType: 'endUser', targetId: params.id, detail: { reason: body.reason } });
      const { user, after, revoked } = await disableEndUser(ctx, params.id, body.reason);
      audit({ targetName: user.email, detail: { sessionsEnded: revoked, from: user.status } });
      return after;
    },

    enable: async ({ params, body, audit }) => {
      audit({ targetType: 'endUser', targetId: params.id, detail: { reason: body.reason ?? '' } });
      const { user, after } = await enableEndUser(ctx, params.id);
      audit({ targetName: user.email });
      return after;
    },

    sendReset: async ({ params, audit }) => {
      audit({ targetType: 'endUser', targetId: params.id });
      const user = await sendResetToEndUser(ctx, params.id);
      audit({ targetName: user.email });
      return null;
    },

    cancelDeletion: async ({ params, audit }) => {
      audit({ targetType: 'endUser', targetId: params.id });
      const { user, after } = await cancelEndUserDeletion(ctx, params.id);
      audit({ targetName: user.email, detail: { deletionAt: user.deletionAt?.toISOString() ?? null } });
      return after;
    },

    byCountry: ({ query }) => usersByCountry(ctx.db, query),
    byCity: ({ query }) => usersByCity(ctx.db, query),
  });
}

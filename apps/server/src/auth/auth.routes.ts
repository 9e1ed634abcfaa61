import type { FastifyInstance } from 'fastify';
import { authApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { principal } from '../http/auth.ts';
import { localeOf } from '../http/envelope.ts';
import { backgroundRunner } from './background.ts';
import { createCaptcha } from './captcha.service.ts';
import { signIn } from './login.service.ts';
import { changePassword } from './password-change.service.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';
import { updateProfile, userInfo } from './profile.service.ts';
import { registerAccount } from './register.service.ts';
import { revokeSession } from './session.service.ts';

/** Sign-in and the signed-in user's own account; docs/api.md "Authentication and the security token". Its retention runs in auth.module.ts. */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const inBackground = backgroundRunner(app);

  serve(app, ctx, authApi, {
    signIn: ({ request, body }) => signIn(app, ctx, request, body),

    captcha: ({ request, body }) => createCaptcha(ctx, request, body),

    logout: async ({ request, audit }) => {
      const me = principal(request);
      audit({ targetType: 'staff', targetId: me.id, targetName: me.username });
      await revokeSession(ctx, me.sessionId);
      return null;
    },

    info: ({ request }) => userInfo(ctx, principal(request).id),

    updateProfile: ({ request, body }) => updateProfile(ctx, request, principal(request), body),

    register: ({ request, body }) => registerAccount(ctx, request, body, localeOf(request)),

    changePassword: async ({ request, body }) => {
      await changePassword(ctx, request, principal(request), body);
      return null;
    },

    forgotPassword: async ({ request, body }) => {
      // Answered before any lookup, in the same time whether or not the account exists.
      const locale = localeOf(request);
      inBackground('forgot-password', () => requestPasswordReset(ctx, request, body.username, locale));
      return null;
    },

    resetPassword: async ({ request, body }) => {
      await resetPassword(ctx, request, body);
      return null;
    },
  });
}

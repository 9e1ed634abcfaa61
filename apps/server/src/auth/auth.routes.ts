import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  captchaBodySchema,
  captchaResultSchema,
  doneSchema,
  envelopeSchema,
  loginBodySchema,
  loginResultSchema,
  profileBodySchema,
  registerBodySchema,
  registerResultSchema,
  userInfoSchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { createCaptcha } from './captcha.service.ts';
import { pruneAttempts } from './login-attempts.service.ts';
import { signIn } from './login.service.ts';
import { passwordRoutes } from './password.routes.ts';
import { updateProfile, userInfo } from './profile.service.ts';
import { accountRateLimit } from './rate-limit.ts';
import { registerAccount } from './register.service.ts';
import { revokeSession } from './session.service.ts';

/** Sign-in and the signed-in user's own account (spec §7); docs/api.md "Authentication and the security token". */
export async function authRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const signedIn = { tags, security: [{ bearer: [] }] };
  const limited = accountRateLimit(ctx);

  const retention = setInterval(() => {
    pruneAttempts(ctx).catch((err: unknown) => app.log.warn({ err }, 'sign-in attempt retention failed'));
  }, 3_600_000);
  retention.unref();
  app.addHook('onClose', async () => clearInterval(retention));

  r.post(
    '/api/admin/user/login',
    {
      config: limited,
      schema: { tags, summary: 'Sign in: access token and browser trust token', body: loginBodySchema, response: { 200: envelopeSchema(loginResultSchema) } },
    },
    async (request) => ok(request, await signIn(app, ctx, request, request.body)),
  );

  r.post(
    '/api/admin/user/verification-code',
    {
      config: limited,
      schema: { tags, summary: 'A proof-of-work captcha challenge (single use, 5 minutes, harder with each failure)', body: captchaBodySchema, response: { 200: envelopeSchema(captchaResultSchema) } },
    },
    async (request) => ok(request, await createCaptcha(ctx, request, request.body)),
  );

  r.post(
    '/api/admin/user/logout',
    { preHandler: ctx.guard(), schema: { ...signedIn, summary: 'Sign out: the access token dies on the server', response: { 200: envelopeSchema(doneSchema) } } },
    async (request) => {
      const me = principal(request);
      await revokeSession(ctx, me.sessionId);
      await ctx.audit(request, { action: 'auth.logout', result: 'success', targetType: 'staff', targetId: me.id, targetName: me.username });
      return ok(request, null);
    },
  );

  r.get(
    '/api/admin/user/info',
    { preHandler: ctx.guard('profile'), schema: { ...signedIn, summary: 'The signed-in user (session state and user center)', response: { 200: envelopeSchema(userInfoSchema) } } },
    async (request) => ok(request, await userInfo(ctx, principal(request).id)),
  );

  r.put(
    '/api/admin/user/profile',
    {
      preHandler: ctx.guard('profile'),
      schema: { ...signedIn, summary: 'Edit my own basic information', body: profileBodySchema, response: { 200: envelopeSchema(userInfoSchema) } },
    },
    async (request) => ok(request, await updateProfile(ctx, request, principal(request), request.body)),
  );

  r.post(
    '/api/admin/user/register',
    {
      config: limited,
      schema: { tags, summary: 'Ask for a staff account (pending until an admin approves it)', body: registerBodySchema, response: { 200: envelopeSchema(registerResultSchema) } },
    },
    async (request) => ok(request, await registerAccount(ctx, request, request.body, localeOf(request))),
  );

  await passwordRoutes(app, ctx);
}

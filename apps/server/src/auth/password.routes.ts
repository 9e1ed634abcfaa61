import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { changePasswordBodySchema, doneSchema, envelopeSchema, forgotPasswordBodySchema, resetPasswordBodySchema } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { principal } from '../http/auth.ts';
import { localeOf, ok } from '../http/envelope.ts';
import { backgroundRunner } from './background.ts';
import { changePassword } from './password-change.service.ts';
import { requestPasswordReset, resetPassword } from './password-reset.service.ts';

/** Changing a known password, and recovering a forgotten one by mail. */
export async function passwordRoutes(app: FastifyInstance, ctx: AppContext) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const limited = ctx.accountRateLimit;
  const inBackground = backgroundRunner(app);

  r.put(
    '/api/admin/user/password',
    {
      preHandler: ctx.guard('profile'),
      // Limited too: a stolen session must not be able to guess the current password quickly.
      config: limited,
      schema: { tags, security: [{ bearer: [] }], summary: 'Change my password (signs out my other sessions)', body: changePasswordBodySchema, response: { 200: envelopeSchema(doneSchema) } },
    },
    async (request) => {
      await changePassword(ctx, request, principal(request), request.body);
      return ok(request, null);
    },
  );

  r.post(
    '/api/admin/user/forgot-password',
    {
      config: limited,
      schema: { tags, summary: 'Mail a reset link; always answers success', body: forgotPasswordBodySchema, response: { 200: envelopeSchema(doneSchema) } },
    },
    async (request) => {
      // Answered before any lookup, in the same time whether or not the account exists.
      const { username } = request.body;
      const locale = localeOf(request);
      inBackground('forgot-password', () => requestPasswordReset(ctx, request, username, locale));
      return ok(request, null);
    },
  );

  r.post(
    '/api/admin/user/reset-password',
    {
      config: limited,
      schema: { tags, summary: 'Set a new password with a mailed reset link (single use)', body: resetPasswordBodySchema, response: { 200: envelopeSchema(doneSchema) } },
    },
    async (request) => {
      await resetPassword(ctx, request, request.body);
      return ok(request, null);
    },
  );
}

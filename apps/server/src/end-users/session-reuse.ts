import type { FastifyRequest } from 'fastify';
import type { Locale } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import type { ReusedSession } from './app-session.ts';
import { getUser } from './accounts.service.ts';
import { writeUserLog } from './user-log.service.ts';

/**
 * Tells the owner that a session of theirs was ended because its spent refresh token came back.
 * The app has no inbox, so it is a mail in the owner's language; the user log keeps it for support.
 */
export async function tellSessionEnded(ctx: AppContext, request: FastifyRequest, ended: ReusedSession): Promise<void> {
  const user = await getUser(ctx, ended.userId);
  await writeUserLog(ctx, request, {
    action: 'session.reuse',
    result: 'failure',
    userId: user.id,
    email: user.email,
    country: user.country,
    detail: { sessionId: ended.sessionId, sessionCreatedAt: ended.createdAt.toISOString(), userAgent: ended.userAgent },
  });
  const locale = user.locale as Locale;
  const device = ended.userAgent || (locale === 'zh-CN' ? '未知设备' : 'an unknown device');
  const at = `${ended.createdAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  await ctx.mailer.send({ to: user.email, template: 'app-session-ended', params: { name: user.name, device, at }, locale });
}

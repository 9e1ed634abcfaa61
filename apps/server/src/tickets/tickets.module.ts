import type { AppContext } from '../context.ts';
import { periodic, type FeatureModule } from '../module.ts';
import { sweepDeletedFiles } from './attachments.ts';
import { startInboundListener, type InboundListener } from './inbound-mail.ts';
import { threadMail } from './inbound-thread.ts';
import { replyAddresses } from './reply-address.ts';
import { recordSlaBreaches } from './sla-breaches.ts';
import { ticketRoutes } from './tickets.routes.ts';
import { closeExpired } from './tickets.service.ts';

/**
 * Feedback tickets: the routes, the inbound SMTP listener for mailed answers (INBOUND_SMTP_*), and
 * the timers: SLA breaches are told within a minute, resolved tickets close once their reopen
 * window has passed, and the files of deleted attachment rows (an erased account's tickets) leave
 * the disk within a minute.
 */
export function ticketsModule(ctx: AppContext): FeatureModule & { inbound(): InboundListener | undefined } {
  const replies = replyAddresses(ctx.config.jwtSecret, ctx.config.inboundMailDomain);
  let inbound: InboundListener | undefined;
  const timers = periodic(ctx.log, [
    { what: 'recording SLA breaches', everyMs: 60_000, run: () => recordSlaBreaches(ctx.db) },
    { what: 'closing expired tickets', everyMs: 3_600_000, run: () => closeExpired(ctx.db) },
    { what: 'removing deleted ticket files', everyMs: 60_000, run: () => sweepDeletedFiles(ctx.db, ctx.config.dataDir) },
  ]);
  return {
    name: 'tickets',
    inbound: () => inbound,
    routes: (scope) => ticketRoutes(scope, ctx, replies),
    async start() {
      if (ctx.config.inboundSmtpEnabled) {
        inbound = await startInboundListener({
          host: ctx.config.inboundSmtpHost,
          port: ctx.config.inboundSmtpPort,
          replies,
          log: ctx.log,
          trustedRelay: ctx.config.inboundTrustedRelay,
          thread: (mail) => threadMail(ctx, mail),
        });
      }
      await timers.start();
    },
    async stop() {
      await timers.stop();
      await inbound?.close();
      inbound = undefined;
    },
  };
}

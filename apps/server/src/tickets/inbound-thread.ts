import { eq } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { appUsers } from '../end-users/end-users.sql.ts';
import { AppError } from '../http/envelope.ts';
import { countHit } from '../rate-limit/shared-store.ts';
import { MAILS_PER_TICKET_HOUR, type InboundMail } from './inbound-mail.ts';
import { customerReply } from './tickets.service.ts';
import { tickets } from './tickets.sql.ts';

/**
 * A mailed answer threads in as the ticket's user, only when the envelope sender and the header
 * From are both the user's own address, and at most MAILS_PER_TICKET_HOUR an hour per ticket:
 * counted in the database (after the sender checks, so a forger cannot use up the owner's
 * allowance), the same count on every node.
 */
export async function threadMail(ctx: AppContext, mail: InboundMail): Promise<void> {
  const [row] = await ctx.db.select().from(tickets).where(eq(tickets.id, mail.ticketId)).limit(1);
  if (!row) throw new AppError('TICKET_NOT_FOUND');
  const [user] = await ctx.db.select({ email: appUsers.email, name: appUsers.name }).from(appUsers).where(eq(appUsers.id, row.userId));
  const owner = user?.email.toLowerCase();
  if (!user || owner !== mail.from || owner !== mail.envelopeFrom) throw new AppError('TICKET_NOT_FOUND', { reason: 'sender is not the ticket user' });
  const { current } = await countHit(ctx.db, `inbound-mail ticket:${row.id}`, 3_600_000);
  if (current > MAILS_PER_TICKET_HOUR) throw new AppError('RATE_LIMITED', { reason: `more than ${MAILS_PER_TICKET_HOUR} mails to this ticket within an hour` });
  await customerReply(ctx.db, row, user.name, mail.text, 'mail', user.name || user.email);
}

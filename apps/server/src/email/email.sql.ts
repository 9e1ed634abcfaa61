import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { emailTemplates } from '@mowerline/contract';

export const emailLogs = pgTable(
  'email_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    template: text('template', { enum: emailTemplates }).notNull(),
    status: text('status', { enum: ['sent', 'failed', 'not_sent'] }).notNull(),
    error: text('error').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('email_logs_created_at').on(t.createdAt)],
);

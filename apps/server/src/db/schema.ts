// Every table, for drizzle's relational queries. Tables live in their feature's `*.sql.ts`.
export * from '../staff/staff.sql.ts';
export * from '../auth/auth.sql.ts';
export * from '../system-log/system-log.sql.ts';
export * from '../email/email.sql.ts';
export * from '../messages/messages.sql.ts';

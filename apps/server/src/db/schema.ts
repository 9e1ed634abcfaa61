// Every table, for drizzle's relational queries. Tables live in their feature's `*.sql.ts`.
export * from '../staff/staff.sql.ts';
export * from '../auth/auth.sql.ts';
export * from '../two-factor/two-factor.sql.ts';
export * from '../system-log/system-log.sql.ts';
export * from '../email/email.sql.ts';
export * from '../messages/messages.sql.ts';
export * from '../product/product.sql.ts';
export * from '../devices/devices.sql.ts';
export * from '../shell/shell.sql.ts';
export * from '../firmware/firmware.sql.ts';
export * from '../ota/ota.sql.ts';
export * from '../app-version/app-version.sql.ts';
export * from '../end-users/end-users.sql.ts';
export * from '../tasks/tasks.sql.ts';
export * from '../tickets/tickets.sql.ts';
export * from '../content/content.sql.ts';
export * from '../rate-limit/rate-limit.sql.ts';

import { sql } from 'drizzle-orm';
import { index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const staffUsers = pgTable(
  'staff_users',
  {
    id: serial('id').primaryKey(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    name: text('name').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    role: text('role', { enum: ['admin', 'user'] }).notNull().default('user'),
    status: text('status', { enum: ['active', 'disabled', 'pending'] }).notNull().default('active'),
    avatar: text('avatar').notNull().default(''),
    job: text('job').notNull().default(''),
    organization: text('organization').notNull().default(''),
    location: text('location').notNull().default(''),
    introduction: text('introduction').notNull().default(''),
    personalWebsite: text('personal_website').notNull().default(''),
    requestReason: text('request_reason').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Usernames are unique regardless of case: "Admin" cannot shadow "admin".
    uniqueIndex('staff_users_username_lower').on(sql`lower(${t.username})`),
    index('staff_users_email_lower').on(sql`lower(${t.email})`),
  ],
);
export type StaffRow = typeof staffUsers.$inferSelect;

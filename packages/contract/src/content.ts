import { z } from 'zod';
import { idSchema, pageQuerySchema } from './envelope.ts';
import { locales } from './locale.ts';

/**
 * App content: help articles (Markdown), image posts and videos that staff publish
 * (`/operation/content`) and the mobile app opens (`/api/app/v1/content`). Opens are counted once
 * per app user per item per UTC day and rolled up per day; the dashboard's popular lists and
 * content chart read the roll-up.
 */

export const contentTypes = ['text', 'image', 'video'] as const;
export type ContentType = (typeof contentTypes)[number];
export const contentStates = ['draft', 'published', 'archived'] as const;
export type ContentState = (typeof contentStates)[number];
/** What an uploaded file may be used as: images are re-encoded, videos stored as sent. */
export const contentFileKinds = ['image', 'video'] as const;
export type ContentFileKind = (typeof contentFileKinds)[number];

/** Largest image upload (before re-encoding) and video upload. */
export const CONTENT_IMAGE_MAX_MB = 10;
export const CONTENT_VIDEO_MAX_MB = 200;
/** Popular lists hold 5 items; the period is a week unless asked otherwise. */
export const POPULAR_SIZE = 5;
export const contentDataRanges = [8, 30, 90] as const;

const titleSchema = z.string().trim().min(1).max(200);
const bodySchema = z.string().max(50_000);
/** A title or body in both languages the console offers. */
const localizedTitle = z.object(Object.fromEntries(locales.map((l) => [l, titleSchema])) as Record<(typeof locales)[number], typeof titleSchema>).strict();
const localizedBody = z.object(Object.fromEntries(locales.map((l) => [l, bodySchema])) as Record<(typeof locales)[number], typeof bodySchema>).strict();
/** An external video or image address: http(s) only, so no `javascript:` or `data:` reaches a player. */
export const contentUrlSchema = z
  .string()
  .trim()
  .max(2000)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'http or https URL');
const modelCodeSchema = z.string().trim().min(1).max(32);

export const contentWriteBodySchema = z
  .object({
    type: z.enum(contentTypes),
    title: localizedTitle,
    body: localizedBody,
    coverFileId: idSchema.nullable().default(null),
    /** The image of an image post or the video of a video post, uploaded… */
    mediaFileId: idSchema.nullable().default(null),
    /** …or linked (a video on a streaming site). */
    mediaUrl: contentUrlSchema.nullable().default(null),
    /** Product model codes the item is for; empty = every owner. */
    models: z.array(modelCodeSchema).max(50).default([]),
  })
  .strict();
export type ContentWriteBody = z.infer<typeof contentWriteBodySchema>;
export const contentStateBodySchema = z.object({ state: z.enum(contentStates) }).strict();

export const contentItemSchema = z.object({
  id: z.number().int(),
  type: z.enum(contentTypes),
  state: z.enum(contentStates),
  title: localizedTitle,
  body: localizedBody,
  coverFileId: z.number().int().nullable(),
  /** A signed link to the cover (the console's <img> cannot send a token). */
  coverUrl: z.string().nullable(),
  mediaFileId: z.number().int().nullable(),
  mediaUrl: z.string().nullable(),
  /** A signed link to the uploaded image or video, or the external URL. */
  mediaHref: z.string().nullable(),
  models: z.array(z.string()),
  opens: z.number().int().min(0),
  createdByName: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  publishedAt: z.string().nullable(),
});
export type ContentItem = z.infer<typeof contentItemSchema>;

export const contentListQuerySchema = z
  .object({
    type: z.enum(contentTypes).optional(),
    state: z.enum(contentStates).optional(),
    keyword: z.string().trim().max(100).optional(),
  })
  .extend(pageQuerySchema.shape)
  .strict();

export type ContentListQuery = z.infer<typeof contentListQuerySchema>;

export const contentFileUploadFieldsSchema = z.object({ kind: z.enum(contentFileKinds) }).strict();
export const contentFileSchema = z.object({
  id: z.number().int(),
  kind: z.enum(contentFileKinds),
  mime: z.string(),
  size: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  url: z.string(),
});
export type ContentFile = z.infer<typeof contentFileSchema>;
export const contentFileQuerySchema = z.object({ exp: z.coerce.number().int().min(0).max(2 ** 40), sig: z.string().max(128) }).strict();

/** The spec's popular item: `increases` is the percent change against the period before; null when that period had no opens. */
export const popularItemSchema = z.object({
  key: z.number().int(),
  clickNumber: z.number().int().min(0),
  title: z.string(),
  increases: z.number().nullable(),
});
export type PopularItem = z.infer<typeof popularItemSchema>;
export const popularQuerySchema = z
  .object({ type: z.enum(contentTypes).default('text'), days: z.coerce.number().int().min(1).max(90).default(7) })
  .strict();

/** The spec's content-data point: a UTC day and the opens that day. */
export const contentDataPointSchema = z.object({ x: z.string(), y: z.number().int().min(0) });
export type ContentDataPoint = z.infer<typeof contentDataPointSchema>;
export const contentDataQuerySchema = z
  .object({ days: z.enum(contentDataRanges.map(String) as ['8', '30', '90']).default('8').transform(Number) })
  .strict();

/** What the app lists: one language (the user's), covers as signed links. */
export const appContentSummarySchema = z.object({
  id: z.number().int(),
  type: z.enum(contentTypes),
  title: z.string(),
  coverUrl: z.string().nullable(),
  publishedAt: z.string(),
});
export const appContentListQuerySchema = z.object({ type: z.enum(contentTypes).optional() }).extend(pageQuerySchema.shape).strict();
export const appContentDetailSchema = appContentSummarySchema.extend({
  /** Markdown for text articles; a caption for image and video posts. */
  body: z.string(),
  mediaUrl: z.string().nullable(),
});
export type AppContentDetail = z.infer<typeof appContentDetailSchema>;

/**
 * The dashboard's attention list (`GET /api/admin/statistics/notify`): what needs the signed-in
 * staff member, each with a count and the console page that shows exactly those rows.
 */
export const notifyKeys = [
  'unreadMessages',
  'newTickets',
  'unassignedTickets',
  'slaBreachedTickets',
  'criticalEvents',
  'otaCampaigns',
  'scheduleSyncFailed',
  'accountRequests',
] as const;
export type NotifyKey = (typeof notifyKeys)[number];
export const notifyItemSchema = z.object({
  key: z.enum(notifyKeys),
  count: z.number().int().min(0),
  /** A console route with its filter in the query: `/device/device-exception-event?status=active&severity=critical`. */
  link: z.string(),
  level: z.enum(['info', 'warning', 'danger']),
});
export type NotifyItem = z.infer<typeof notifyItemSchema>;
export const notifySchema = z.object({ list: z.array(notifyItemSchema) });
export type NotifyStats = z.infer<typeof notifySchema>;

/** App users active on the current UTC day: anything in the user log, or a content open. */
export const activeAppUsersSchema = z.object({ day: z.string(), count: z.number().int().min(0) });

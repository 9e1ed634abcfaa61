import { z } from 'zod';
import { deviceStates, firmwareVersionSchema } from './device-protocol.ts';
import { deviceListQuerySchema, ownerSchema, regionSchema } from './devices.ts';
import { idParam, idSchema, isoTime, pageQuerySchema, pageSchema } from './envelope.ts';
import { storedText } from './stored-text.ts';
import { MAX_TAG_CONDITIONS, tagConditionSchema, tagKeySchema, tagValueSchema } from './tags.ts';

/** Most SNs one request may name (group members, bulk tagging, a group's SN list). */
export const MAX_BULK_SNS = 100_000;

/**
 * A saved device filter: every filter of the device list (as JSON), plus conditions on staff tags
 * and on device-reported attributes. A filter without any condition would match every device: it
 * must say so with `all: true`.
 */
export const groupFilterSchema = z
  .object({
    sn: z.string().trim().toUpperCase().max(32).optional(),
    modelId: idSchema.optional(),
    firmware: firmwareVersionSchema.optional(),
    online: z.boolean().optional(),
    state: z.enum(deviceStates).optional(),
    owner: ownerSchema.optional(),
    region: regionSchema.optional(),
    lastSeenFrom: isoTime.optional(),
    lastSeenTo: isoTime.optional(),
    tags: z.array(tagConditionSchema).max(MAX_TAG_CONDITIONS).optional(),
    attributes: z.array(tagConditionSchema).max(MAX_TAG_CONDITIONS).optional(),
    all: z.literal(true).optional(),
  })
  .strict();
export type GroupFilter = z.infer<typeof groupFilterSchema>;

export const groupKinds = ['static', 'dynamic'] as const;
export type GroupKind = (typeof groupKinds)[number];

/** An SN as a row of bulk input: checked per row by the server (unknown, duplicate, malformed), not refused as a whole. */
const bulkSns = z.array(z.string().trim().toUpperCase().max(64)).max(MAX_BULK_SNS);

const groupName = storedText(100, { trim: true, min: 1 });
const groupDescription = storedText(500, { trim: true });

/** POST /api/admin/device-group. Static: `sns` (optional, the first members). Dynamic: `filter`. */
export const deviceGroupCreateBodySchema = z
  .object({ name: groupName, description: groupDescription.default(''), kind: z.enum(groupKinds), filter: groupFilterSchema.optional(), sns: bulkSns.optional() })
  .strict();
export type DeviceGroupCreateBody = z.infer<typeof deviceGroupCreateBodySchema>;

/** PUT /api/admin/device-group/:id — the kind never changes; `filter` only on a dynamic group. */
export const deviceGroupUpdateBodySchema = z.object({ name: groupName.optional(), description: groupDescription.optional(), filter: groupFilterSchema.optional() }).strict();
export type DeviceGroupUpdateBody = z.infer<typeof deviceGroupUpdateBodySchema>;

export const deviceGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(groupKinds),
  filter: groupFilterSchema.nullable(),
  /** Exact up to 10,000 members, then the planner's estimate (`memberCountExact` false). */
  memberCount: z.number().int(),
  memberCountExact: z.boolean(),
  createdBy: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type DeviceGroup = z.infer<typeof deviceGroupSchema>;

/** GET /api/admin/device-group: by name (case-insensitive, contains). */
export const deviceGroupListQuerySchema = pageQuerySchema.extend({ name: storedText(100, { trim: true }).optional(), kind: z.enum(groupKinds).optional() }).strict();
export type DeviceGroupListQuery = z.infer<typeof deviceGroupListQuerySchema>;
export const deviceGroupPageSchema = pageSchema(deviceGroupSchema);

export const deviceGroupParamsSchema = z.object({ id: idParam }).strict();

/** GET /api/admin/device-group/:id/devices: the members, paged, sorted and filtered like the device list. */
export const deviceGroupDevicesQuerySchema = deviceListQuerySchema.omit({ groupId: true });

/** One refused row of bulk input; `row` counts from 1 in the list as sent. */
export const bulkRowReasons = ['unknown', 'duplicate', 'invalid'] as const;
export const bulkRowErrorSchema = z.object({ row: z.number().int(), sn: z.string(), reason: z.enum(bulkRowReasons) });
export type BulkRowError = z.infer<typeof bulkRowErrorSchema>;
/** Errors listed at most (the count is always whole). */
export const MAX_ROW_ERRORS = 500;

/** POST /api/admin/device-group/:id/members (static groups): the valid rows are applied, the others reported. */
export const groupMembersBodySchema = z.object({ add: bulkSns.default([]), remove: bulkSns.default([]) }).strict();
export type GroupMembersBody = z.infer<typeof groupMembersBodySchema>;
export const groupMembersResultSchema = z.object({
  added: z.number().int(),
  removed: z.number().int(),
  memberCount: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(bulkRowErrorSchema),
});
export type GroupMembersResult = z.infer<typeof groupMembersResultSchema>;

/** The answer to creating a group: the group, and for a static group made with `sns`, what became of each row. */
export const deviceGroupCreatedSchema = deviceGroupSchema.extend({ members: groupMembersResultSchema.optional() });

/**
 * POST /api/admin/device/tags: set and remove staff tags on a selection (`sns`) or on every device a
 * filter matches now (`filter`, which needs `all: true` to mean every device). A key both set and
 * removed is refused.
 */
export const deviceTagsBodySchema = z
  .object({
    sns: bulkSns.optional(),
    filter: groupFilterSchema.optional(),
    set: z.record(tagKeySchema, tagValueSchema).default({}),
    remove: z.array(tagKeySchema).max(MAX_TAG_CONDITIONS).default([]),
  })
  .strict()
  .refine((b) => Object.keys(b.set).length <= MAX_TAG_CONDITIONS, { message: `at most ${MAX_TAG_CONDITIONS} tags at once`, path: ['set'] });
export type DeviceTagsBody = z.infer<typeof deviceTagsBodySchema>;
export const deviceTagsResultSchema = z.object({
  /** Devices the change applied to. */
  devices: z.number().int(),
  errorCount: z.number().int(),
  errors: z.array(bulkRowErrorSchema),
});
export type DeviceTagsResult = z.infer<typeof deviceTagsResultSchema>;

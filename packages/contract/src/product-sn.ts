import { z } from 'zod';
import { snSchema } from './device-protocol.ts';
import { ownerSchema, regionSchema } from './devices.ts';
import { idParam, idSchema, pageQuerySchema, queryBoolean } from './envelope.ts';

/**
 * Product models and the serial numbers registered for them: what a mower is before it first
 * connects (its SN, secret and pairing code), one by one or imported from CSV.
 */

const remarkSchema = z.string().trim().max(500);

// ---------------------------------------------------------------- product models

/**
 * A model's own ingest limits per device; null takes the server default (DEVICE_TELEMETRY_RATE,
 * DEVICE_TELEMETRY_BURST, DEVICE_EVENTS_PER_HOUR). docs/device-protocol.md, "Ingest limits".
 */
export const ingestLimitsSchema = z
  .object({
    /** Telemetry messages per second, sustained. */
    telemetryRate: z.number().positive().max(10_000).nullable(),
    /** Telemetry messages a device may send at once above the rate. */
    telemetryBurst: z.number().int().min(1).max(100_000).nullable(),
    /** New active exception events per hour. */
    eventsPerHour: z.number().int().min(1).max(100_000).nullable(),
  })
  .strict();
export type IngestLimits = z.infer<typeof ingestLimitsSchema>;

export const productModelSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  description: z.string(),
  limits: ingestLimitsSchema,
  createdAt: z.string(),
});
export type ProductModel = z.infer<typeof productModelSchema>;

export const modelCodeSchema = z.string().trim().toUpperCase().regex(/^[A-Z0-9][A-Z0-9-]{0,31}$/, 'upper-case letters, digits and dashes');

/** POST /api/admin/product/model */
export const productModelCreateBodySchema = z
  .object({ code: modelCodeSchema, name: z.string().trim().min(1).max(64), description: z.string().trim().max(500).optional() })
  .strict();
export type ProductModelCreateBody = z.infer<typeof productModelCreateBodySchema>;

/** PUT /api/admin/product/model/:id (the code is fixed: devices and CSV files name it). */
export const productModelUpdateBodySchema = z
  .object({ name: z.string().trim().min(1).max(64).optional(), description: z.string().trim().max(500).optional(), limits: ingestLimitsSchema.partial().strict().optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
export type ProductModelUpdateBody = z.infer<typeof productModelUpdateBodySchema>;

// ---------------------------------------------------------------- serial numbers

export const snRecordSchema = z.object({
  sn: z.string(),
  modelId: z.number().int(),
  modelCode: z.string(),
  modelName: z.string(),
  enabled: z.boolean(),
  region: z.string(),
  owner: z.string(),
  remark: z.string(),
  online: z.boolean(),
  createdAt: z.string(),
  secretRotatedAt: z.string(),
});
export type SnRecord = z.infer<typeof snRecordSchema>;

/** A page of SNs; `totalExact` as in the device list (an estimate above 10,000 matches). */
export const snPageSchema = z.object({ list: z.array(snRecordSchema), total: z.number().int().min(0), totalExact: z.boolean() });

/** GET /api/admin/product/sn (`sn` is a prefix). */
export const snListQuerySchema = pageQuerySchema
  .extend({
    sn: z.string().trim().toUpperCase().max(32).optional(),
    modelId: idParam.optional(),
    enabled: queryBoolean.optional(),
    region: regionSchema.optional(),
    owner: ownerSchema.optional(),
  })
  .strict();
export type SnListQuery = z.infer<typeof snListQuerySchema>;

/** POST /api/admin/product/sn */
export const snCreateBodySchema = z
  .object({ sn: snSchema, modelId: idSchema, region: regionSchema.optional(), owner: ownerSchema.optional(), remark: remarkSchema.optional() })
  .strict();
export type SnCreateBody = z.infer<typeof snCreateBodySchema>;

/** PUT /api/admin/product/sn/:sn — enable/disable, region, owner, remark. */
export const snUpdateBodySchema = z
  .object({ enabled: z.boolean().optional(), region: z.union([regionSchema, z.literal('')]).optional(), owner: ownerSchema.optional(), remark: remarkSchema.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'nothing to change');
export type SnUpdateBody = z.infer<typeof snUpdateBodySchema>;

export const snParamsSchema = z.object({ sn: snSchema }).strict();

/**
 * The device secret and the label's pairing code (`XXXXX-XXXXX`, what an owner binds with; see
 * `pairingQrPayload`), shown once: on registration and rotation. Rotation issues a new label code.
 */
export const snSecretSchema = z.object({ sn: z.string(), secret: z.string(), pairingCode: z.string() });
export type SnSecret = z.infer<typeof snSecretSchema>;

/** A device secret supplied by the factory in an import file: base64url, 32–128 characters. */
export const deviceSecretSchema = z.string().regex(/^[A-Za-z0-9_-]{32,128}$/, 'base64url, 32–128 characters');

export const MAX_SN_IMPORT_ROWS = 10_000;
/** Columns of an SN import file (header row required, any order; `sn` and `model` required). */
export const snImportColumns = ['sn', 'model', 'region', 'owner', 'remark', 'secret'] as const;

/** Why an import row was refused. */
export const snImportReasons = {
  BAD_COLUMNS: { 'zh-CN': '列数与表头不一致', 'en-US': 'Column count does not match the header' },
  SN_INVALID: { 'zh-CN': '序列号格式错误', 'en-US': 'Invalid serial number' },
  SN_DUPLICATE: { 'zh-CN': '序列号在文件中重复', 'en-US': 'Serial number repeated in the file' },
  SN_EXISTS: { 'zh-CN': '序列号已注册', 'en-US': 'Serial number already registered' },
  MODEL_UNKNOWN: { 'zh-CN': '产品型号不存在', 'en-US': 'Unknown product model' },
  REGION_INVALID: { 'zh-CN': '区域格式错误', 'en-US': 'Invalid region' },
  FIELD_TOO_LONG: { 'zh-CN': '字段过长', 'en-US': 'Field too long' },
  SECRET_INVALID: { 'zh-CN': '设备密钥格式错误（base64url，32–128 位）', 'en-US': 'Invalid device secret (base64url, 32–128 characters)' },
} as const;
export type SnImportReason = keyof typeof snImportReasons;

export const snImportRejectionSchema = z.object({
  /** 1-based line in the file (the header is line 1). */
  line: z.number().int(),
  sn: z.string(),
  reason: z.enum(Object.keys(snImportReasons) as [SnImportReason, ...SnImportReason[]]),
  message: z.string(),
});
export type SnImportRejection = z.infer<typeof snImportRejectionSchema>;
/** Data of the SN_IMPORT_REJECTED error: every refused row (nothing was imported). */
export const snImportReportSchema = z.object({
  rows: z.number().int(),
  rejectedCount: z.number().int(),
  /** The first 1,000 refused rows. */
  rejected: z.array(snImportRejectionSchema),
});
export type SnImportReport = z.infer<typeof snImportReportSchema>;
/** The largest import file accepted, in bytes. */
export const MAX_SN_IMPORT_BYTES = 4 * 1024 * 1024;

/** POST /api/admin/product/sn/import (body: the CSV text). `secret` is null where the file supplied it; every SN gets a pairing code. */
export const snImportResultSchema = z.object({
  imported: z.number().int(),
  devices: z.array(z.object({ sn: z.string(), secret: z.string().nullable(), pairingCode: z.string() })),
});
export type SnImportResult = z.infer<typeof snImportResultSchema>;

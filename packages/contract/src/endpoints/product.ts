import { z } from 'zod';
import { idParam } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { MAX_SN_IMPORT_BYTES, productModelCreateBodySchema, productModelSchema, productModelUpdateBodySchema, snCreateBodySchema, snImportResultSchema, snListQuerySchema, snPageSchema, snParamsSchema, snRecordSchema, snSecretSchema, snUpdateBodySchema } from '../product-sn.ts';

const tag = 'product';

/** Product models and the SN registry (`/product/sn`). */
export const productApi = {
  listModels: endpoint({ method: 'GET', path: '/api/admin/product/model', access: staff('productSn'), tag, response: z.array(productModelSchema) }),
  createModel: endpoint({
    method: 'POST',
    path: '/api/admin/product/model',
    access: staff('productSnWrite'),
    tag,
    body: productModelCreateBodySchema,
    response: productModelSchema,
    errors: ['MODEL_CODE_TAKEN'],
    audit: 'product.model.create',
  }),
  updateModel: endpoint({
    method: 'PUT',
    path: '/api/admin/product/model/:id',
    access: staff('productSnWrite'),
    tag,
    params: z.object({ id: idParam }).strict(),
    body: productModelUpdateBodySchema,
    response: productModelSchema,
    errors: ['MODEL_NOT_FOUND'],
    audit: 'product.model.update',
  }),
  listSn: endpoint({ method: 'GET', path: '/api/admin/product/sn', access: staff('productSn'), tag, query: snListQuerySchema, response: snPageSchema, errors: ['INVALID_CURSOR'] }),
  createSn: endpoint({
    method: 'POST',
    path: '/api/admin/product/sn',
    access: staff('productSnWrite'),
    tag,
    summary: 'Register an SN; the device secret is in this answer only',
    body: snCreateBodySchema,
    response: snSecretSchema,
    errors: ['SN_EXISTS', 'MODEL_NOT_FOUND'],
    audit: 'product.sn.create',
  }),
  importSn: endpoint({
    method: 'POST',
    path: '/api/admin/product/sn/import',
    access: staff('productSnWrite'),
    tag,
    summary: 'Import SNs from CSV (Content-Type text/csv; columns sn, model, region, owner, remark, secret): all rows or none',
    consumes: 'text/csv',
    bodyLimit: MAX_SN_IMPORT_BYTES,
    body: z.string().max(MAX_SN_IMPORT_BYTES),
    response: snImportResultSchema,
    errors: ['SN_IMPORT_REJECTED', 'SN_IMPORT_EMPTY', 'SN_IMPORT_TOO_LARGE'],
    audit: 'product.sn.import',
  }),
  updateSn: endpoint({
    method: 'PUT',
    path: '/api/admin/product/sn/:sn',
    access: staff('productSnWrite'),
    tag,
    summary: 'Enable/disable an SN, set region, owner, remark',
    params: snParamsSchema,
    body: snUpdateBodySchema,
    response: snRecordSchema,
    errors: ['SN_NOT_FOUND'],
    audit: 'product.sn.update',
  }),
  rotateSecret: endpoint({
    method: 'POST',
    path: '/api/admin/product/sn/:sn/rotate-secret',
    access: staff('productSnWrite'),
    tag,
    summary: 'Issue a new device secret (shown once); the old one stops working at once',
    params: snParamsSchema,
    response: snSecretSchema,
    errors: ['SN_NOT_FOUND'],
    audit: 'product.sn.rotate-secret',
    stepUp: true,
  }),
};

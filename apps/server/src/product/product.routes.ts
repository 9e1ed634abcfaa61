import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  envelopeSchema,
  idParam,
  MAX_SN_IMPORT_BYTES,
  productModelCreateBodySchema,
  productModelSchema,
  productModelUpdateBodySchema,
  snCreateBodySchema,
  snImportResultSchema,
  snListQuerySchema,
  snPageSchema,
  snParamsSchema,
  snRecordSchema,
  snSecretSchema,
  snUpdateBodySchema,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError, localeOf, ok } from '../http/envelope.ts';
import { createModel, createSn, importSn, listModels, listSn, rotateSecret, updateModel, updateSn } from './product.service.ts';
import { validateImport } from './sn-import.ts';

const tags = ['product'];
const security = [{ bearer: [] }];

/** Product models and the SN registry (`/product/sn`). */
export async function productRoutes(app: FastifyInstance, ctx: AppContext) {
  // Own scope: the CSV body parser below concerns these routes only.
  await app.register(async (scope) => {
    scope.addContentTypeParser('text/csv', { parseAs: 'string', bodyLimit: MAX_SN_IMPORT_BYTES }, (_request, body, done) => done(null, body));
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const read = ctx.guard('productSn');
    const write = ctx.guard('productSnWrite');

    r.get('/api/admin/product/model', { preHandler: read, schema: { tags, security, response: { 200: envelopeSchema(z.array(productModelSchema)) } } }, async (request) =>
      ok(request, await listModels(ctx.db)),
    );

    r.post(
      '/api/admin/product/model',
      { preHandler: write, schema: { tags, security, body: productModelCreateBodySchema, response: { 200: envelopeSchema(productModelSchema) } } },
      async (request) => {
        const model = await createModel(ctx.db, request.body);
        await ctx.audit(request, { action: 'product.model.create', result: 'success', targetType: 'productModel', targetId: model.id, targetName: model.code, detail: { name: model.name } });
        return ok(request, model);
      },
    );

    r.put(
      '/api/admin/product/model/:id',
      {
        preHandler: write,
        schema: { tags, security, params: z.object({ id: idParam }).strict(), body: productModelUpdateBodySchema, response: { 200: envelopeSchema(productModelSchema) } },
      },
      async (request) => {
        const { before, after } = await updateModel(ctx.db, request.params.id, request.body);
        await ctx.audit(request, {
          action: 'product.model.update',
          result: 'success',
          targetType: 'productModel',
          targetId: after.id,
          targetName: after.code,
          detail: { before: { name: before.name, description: before.description }, after: request.body },
        });
        return ok(request, after);
      },
    );

    r.get('/api/admin/product/sn', { preHandler: read, schema: { tags, security, querystring: snListQuerySchema, response: { 200: envelopeSchema(snPageSchema) } } }, async (request) =>
      ok(request, await listSn(ctx.db, request.query)),
    );

    r.post(
      '/api/admin/product/sn',
      { preHandler: write, schema: { tags, security, summary: 'Register an SN; the device secret is in this answer only', body: snCreateBodySchema, response: { 200: envelopeSchema(snSecretSchema) } } },
      async (request) => {
        const created = await createSn(ctx.db, request.body);
        await ctx.audit(request, { action: 'product.sn.create', result: 'success', targetType: 'sn', targetId: created.sn, targetName: created.sn, detail: { modelId: request.body.modelId } });
        return ok(request, created);
      },
    );

    r.post(
      '/api/admin/product/sn/import',
      {
        preHandler: write,
        bodyLimit: MAX_SN_IMPORT_BYTES,
        schema: {
          tags,
          security,
          summary: 'Import SNs from CSV (Content-Type text/csv; columns sn, model, region, owner, remark, secret): all rows or none',
          consumes: ['text/csv', 'text/plain'],
          body: z.string().max(MAX_SN_IMPORT_BYTES),
          response: { 200: envelopeSchema(snImportResultSchema) },
        },
      },
      async (request) => {
        let rows;
        try {
          rows = await validateImport(ctx.db, request.body, localeOf(request));
        } catch (err) {
          if (err instanceof AppError) {
            await ctx.audit(request, { action: 'product.sn.import', result: 'failure', targetType: 'sn', detail: { error: err.key, ...err.params } });
          }
          throw err;
        }
        const created = await importSn(ctx.db, rows);
        await ctx.audit(request, {
          action: 'product.sn.import',
          result: 'success',
          targetType: 'sn',
          targetName: `${created[0]?.sn ?? ''}…${created[created.length - 1]?.sn ?? ''}`,
          detail: { imported: created.length },
        });
        return ok(request, { imported: created.length, devices: created });
      },
    );

    r.put(
      '/api/admin/product/sn/:sn',
      { preHandler: write, schema: { tags, security, summary: 'Enable/disable an SN, set region, owner, remark', params: snParamsSchema, body: snUpdateBodySchema, response: { 200: envelopeSchema(snRecordSchema) } } },
      async (request) => {
        const { before, after } = await updateSn(ctx.db, request.params.sn, request.body);
        // A disabled device must not stay connected on the strength of its old login.
        if (before.enabled && !after.enabled) await ctx.gateway.kick(after.sn).catch(() => {});
        const changed = Object.fromEntries(Object.keys(request.body).map((k) => [k, { from: before[k as keyof typeof before], to: after[k as keyof typeof after] }]));
        await ctx.audit(request, { action: 'product.sn.update', result: 'success', targetType: 'sn', targetId: after.sn, targetName: after.sn, detail: changed });
        return ok(request, after);
      },
    );

    r.post(
      '/api/admin/product/sn/:sn/rotate-secret',
      { preHandler: write, schema: { tags, security, summary: 'Issue a new device secret (shown once); the old one stops working at once', params: snParamsSchema, response: { 200: envelopeSchema(snSecretSchema) } } },
      async (request) => {
        const rotated = await rotateSecret(ctx.db, request.params.sn);
        await ctx.gateway.kick(rotated.sn).catch(() => {});
        await ctx.audit(request, { action: 'product.sn.rotate-secret', result: 'success', targetType: 'sn', targetId: rotated.sn, targetName: rotated.sn });
        return ok(request, rotated);
      },
    );
  });
}

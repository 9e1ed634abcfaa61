import type { FastifyInstance } from 'fastify';
import { productApi } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { serve } from '../http/endpoints.ts';
import { localeOf } from '../http/envelope.ts';
import { createModel, createSn, importSn, listModels, listSn, rotateSecret, updateModel, updateSn } from './product.service.ts';
import { validateImport } from './sn-import.ts';

/** Product models and the SN registry (`/product/sn`). */
export function productRoutes(app: FastifyInstance, ctx: AppContext) {
  serve(app, ctx, productApi, {
    listModels: () => listModels(ctx.db),

    createModel: async ({ body, audit }) => {
      const model = await createModel(ctx.db, body);
      audit({ targetType: 'productModel', targetId: model.id, targetName: model.code, detail: { name: model.name } });
      return model;
    },

    updateModel: async ({ params, body, audit }) => {
      audit({ targetType: 'productModel', targetId: params.id });
      const { before, after } = await updateModel(ctx.db, params.id, body);
      audit({ targetName: after.code, detail: { before: { name: before.name, description: before.description, limits: before.limits }, after: body } });
      if (body.limits) ctx.gateway.limitsChanged();
      return after;
    },

    listSn: ({ query }) => listSn(ctx.db, query),

    createSn: async ({ body, audit }) => {
      audit({ targetType: 'sn', targetId: body.sn, targetName: body.sn, detail: { modelId: body.modelId } });
      return createSn(ctx.db, body);
    },

    importSn: async ({ body, request, audit }) => {
      audit({ targetType: 'sn' });
      const rows = await validateImport(ctx.db, body, localeOf(request));
      const created = await importSn(ctx.db, rows);
      audit({ targetName: `${created[0]?.sn ?? ''}…${created[created.length - 1]?.sn ?? ''}`, detail: { imported: created.length } });
      return { imported: created.length, devices: created };
    },

    updateSn: async ({ params, body, audit }) => {
      audit({ targetType: 'sn', targetId: params.sn, targetName: params.sn });
      const { before, after } = await updateSn(ctx.db, params.sn, body);
      // A disabled device must not stay connected on the strength of its old login.
      if (before.enabled && !after.enabled) await ctx.gateway.kick(after.sn).catch(() => {});
      const changed = Object.fromEntries(Object.keys(body).map((k) => [k, { from: before[k as keyof typeof before], to: after[k as keyof typeof after] }]));
      audit({ detail: changed });
      return after;
    },

    rotateSecret: async ({ params, audit }) => {
      audit({ targetType: 'sn', targetId: params.sn, targetName: params.sn });
      const rotated = await rotateSecret(ctx.db, params.sn);
      await ctx.gateway.kick(rotated.sn).catch(() => {});
      return rotated;
    },
  });
}

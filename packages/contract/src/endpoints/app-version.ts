import { z } from 'zod';
import { idParam, pageSchema } from '../envelope.ts';
import { endpoint, publicAccess, staff } from '../endpoint.ts';
import { appLatestQuerySchema, appLatestSchema, appVersionCreateBodySchema, appVersionListQuerySchema, appVersionSchema, appVersionUpdateBodySchema } from '../firmware.ts';

const tag = 'app-version';

/** App releases (`/product/app-change-log`) and the app's own "should I update?" call. */
export const appVersionApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/product/app-version', access: staff('appVersion'), tag, query: appVersionListQuerySchema, response: pageSchema(appVersionSchema) }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/product/app-version',
    access: staff('appVersionWrite'),
    tag,
    body: appVersionCreateBodySchema,
    response: appVersionSchema,
    errors: ['APP_VERSION_TAKEN'],
    audit: 'app-version.create',
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/admin/product/app-version/:id',
    access: staff('appVersionWrite'),
    tag,
    params: z.object({ id: idParam }).strict(),
    body: appVersionUpdateBodySchema,
    response: appVersionSchema,
    errors: ['APP_VERSION_NOT_FOUND'],
    audit: 'app-version.update',
  }),
  withdraw: endpoint({
    method: 'POST',
    path: '/api/admin/product/app-version/:id/withdraw',
    access: staff('appVersionWrite'),
    tag,
    summary: 'Withdraw a release: the app is no longer offered it (the record stays)',
    params: z.object({ id: idParam }).strict(),
    response: appVersionSchema,
    errors: ['APP_VERSION_NOT_FOUND', 'APP_VERSION_WITHDRAWN'],
    audit: 'app-version.withdraw',
  }),
  // Public: the app asks before anyone signs in.
  latest: endpoint({
    method: 'GET',
    path: '/api/app/v1/app-version/latest',
    access: publicAccess,
    tag: 'app',
    summary: 'The newest release of a platform, whether the running version should (or must) update',
    query: appLatestQuerySchema,
    response: appLatestSchema,
  }),
};

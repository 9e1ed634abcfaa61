import { z } from 'zod';
import { idParam, pageSchema } from '../envelope.ts';
import { appAccess, endpoint, publicAccess, staff } from '../endpoint.ts';
import {
  appContentDetailSchema,
  appContentListQuerySchema,
  appContentSummarySchema,
  CONTENT_VIDEO_MAX_MB,
  contentDataPointSchema,
  contentDataQuerySchema,
  contentFileQuerySchema,
  contentFileSchema,
  contentFileUploadFieldsSchema,
  contentItemSchema,
  contentListQuerySchema,
  contentStateBodySchema,
  contentWriteBodySchema,
  activeAppUsersSchema,
  notifySchema,
  popularItemSchema,
  popularQuerySchema,
} from '../content.ts';

const tag = 'content';
const idParams = z.object({ id: idParam }).strict();

/** Staff side of app content (`/operation/content`) and the dashboard's popular lists and chart. */
export const contentApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/content', access: staff('content'), tag, query: contentListQuerySchema, response: pageSchema(contentItemSchema) }),
  get: endpoint({ method: 'GET', path: '/api/admin/content/item/:id', access: staff('content'), tag, params: idParams, response: contentItemSchema, errors: ['CONTENT_NOT_FOUND'] }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/content',
    access: staff('contentWrite'),
    tag,
    summary: 'A new item, as a draft',
    body: contentWriteBodySchema,
    response: contentItemSchema,
    errors: ['CONTENT_FILE_NOT_FOUND', 'CONTENT_MEDIA', 'MODEL_NOT_FOUND'],
    audit: 'content.create',
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/admin/content/item/:id',
    access: staff('contentWrite'),
    tag,
    params: idParams,
    body: contentWriteBodySchema,
    response: contentItemSchema,
    errors: ['CONTENT_NOT_FOUND', 'CONTENT_FILE_NOT_FOUND', 'CONTENT_MEDIA', 'MODEL_NOT_FOUND'],
    audit: 'content.update',
  }),
  setState: endpoint({
    method: 'PUT',
    path: '/api/admin/content/item/:id/state',
    access: staff('contentWrite'),
    tag,
    summary: 'Publish, archive, or take back to draft',
    params: idParams,
    body: contentStateBodySchema,
    response: contentItemSchema,
    errors: ['CONTENT_NOT_FOUND', 'CONTENT_MEDIA'],
    audit: 'content.state',
  }),
  upload: endpoint({
    method: 'POST',
    path: '/api/admin/content/file',
    access: staff('contentWrite'),
    tag,
    summary: 'Upload a cover, image or video: the field `kind` first, then the part `file`. Images are re-encoded without metadata',
    consumes: 'multipart/form-data',
    bodyLimit: (CONTENT_VIDEO_MAX_MB + 1) * 1024 * 1024,
    body: contentFileUploadFieldsSchema,
    response: contentFileSchema,
    errors: ['CONTENT_FILE_MISSING', 'CONTENT_FILE_TYPE', 'CONTENT_FILE_TOO_LARGE'],
    audit: 'content.file.upload',
  }),
  popular: endpoint({
    method: 'GET',
    path: '/api/admin/content/popular',
    access: staff('content'),
    tag,
    summary: 'Top 5 of a type by opens in the last `days` days, with the percent change against the equal period before',
    query: popularQuerySchema,
    response: z.array(popularItemSchema),
  }),
  data: endpoint({
    method: 'GET',
    path: '/api/admin/content/data',
    access: staff('content'),
    tag,
    summary: 'Opens per UTC day, the last 8, 30 or 90 days, days without opens as 0',
    query: contentDataQuerySchema,
    response: z.array(contentDataPointSchema),
  }),
};

/** An uploaded content file by its signed link: covers and media in the console and the app. */
export const contentFileApi = {
  download: endpoint({
    method: 'GET',
    path: '/api/content/file/:id',
    access: publicAccess,
    tag,
    summary: 'A content file by the signed, expiring link the item answers carry',
    params: idParams,
    query: contentFileQuerySchema,
    produces: 'application/octet-stream',
    errors: ['DOWNLOAD_LINK_INVALID', 'CONTENT_FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
  }),
};

/** The mobile app: published content for the user's language and mowers; opening an item counts. */
export const appContentApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/app/v1/content',
    access: appAccess,
    tag: 'app',
    summary: "Published content in the user's language, for every owner or for the models of the user's mowers",
    query: appContentListQuerySchema,
    response: pageSchema(appContentSummarySchema),
  }),
  open: endpoint({
    method: 'GET',
    path: '/api/app/v1/content/:id',
    access: appAccess,
    tag: 'app',
    summary: 'One item; counts an open (once per user per item per UTC day)',
    params: idParams,
    response: appContentDetailSchema,
    errors: ['CONTENT_NOT_FOUND'],
  }),
};

/** The dashboard's attention list (spec: `/api/admin/statistics/notify`). */
export const dashboardStatisticsApi = {
  notify: endpoint({
    method: 'GET',
    path: '/api/admin/statistics/notify',
    access: staff('dashboard'),
    tag: 'statistics',
    summary: "What needs the signed-in staff member's attention: counts with links to the filtered pages (role-aware)",
    response: notifySchema,
  }),
  activeAppUsers: endpoint({
    method: 'GET',
    path: '/api/admin/statistics/active-app-users',
    access: staff('endUsers'),
    tag: 'statistics',
    summary: 'App users active today (UTC): anything in the user log, or a content open',
    response: activeAppUsersSchema,
  }),
};

import type { FastifyInstance } from 'fastify';
import fastifyMultipart, { type MultipartFile } from '@fastify/multipart';
import { eq } from 'drizzle-orm';
import { appContentApi, contentApi, contentFileApi, contentFileUploadFieldsSchema, isStorableText, pickLocale, unstorableTextPath, type ContentFile } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { serve } from '../http/endpoints.ts';
import { appUser } from '../end-users/app-session.ts';
import { listAppContent, openAppContent } from './app-content.service.ts';
import { contentFilePath, createContentUrlSigner, maxBytes, sendContentFile, storeContentFile, type ContentUrlSigner } from './content-files.ts';
import { contentData, popularContent } from './content-statistics.service.ts';
import { createContent, getContent, listContent, setContentState, updateContent } from './content.service.ts';
import { contentFiles } from './content.sql.ts';

/** App content: staff management and statistics, signed file links, and the app's list and open. */
export async function contentRoutes(app: FastifyInstance, ctx: AppContext) {
  const urls = createContentUrlSigner(ctx.config);
  const appBase = ctx.config.publicUrl;
  const titleOf = (title: { 'en-US': string }) => title['en-US'];

  // Multipart only inside this scope: the rest of the API keeps its JSON-only body parsing.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fields: 4, fieldSize: 1024, files: 1, parts: 5 } });
    serve(scope, ctx, contentApi, {
      list: ({ query }) => listContent(ctx.db, urls, query),
      get: ({ params }) => getContent(ctx.db, urls, params.id),
      create: async ({ body, request, audit }) => {
        const who = principal(request);
        audit({ targetType: 'content', targetName: titleOf(body.title) });
        const item = await createContent(ctx.db, urls, body, { id: who.id, name: who.name });
        audit({ targetId: item.id, detail: { type: item.type } });
        return item;
      },
      update: async ({ params, body, audit }) => {
        audit({ targetType: 'content', targetId: params.id, targetName: titleOf(body.title) });
        const { after } = await updateContent(ctx.db, urls, params.id, body);
        return after;
      },
      setState: async ({ params, body, audit }) => {
        audit({ targetType: 'content', targetId: params.id });
        const { before, after } = await setContentState(ctx.db, urls, params.id, body.state);
        audit({ targetName: titleOf(after.title), detail: { from: before.state, to: after.state } });
        return after;
      },
      upload: async ({ request, audit }) => {
        audit({ targetType: 'content-file' });
        if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA');
        const part = await request.file({ limits: { fileSize: maxBytes('video'), files: 1, fields: 4, fieldSize: 1024 }, throwFileSizeLimit: false });
        const file = await uploadContentFile(ctx, urls, part, principal(request).id);
        audit({ targetId: file.id, detail: { kind: file.kind, mime: file.mime, size: file.size } });
        return file;
      },
      popular: ({ query, request }) => popularContent(ctx.db, query, pickLocale(request.headers['accept-language'])),
      data: ({ query }) => contentData(ctx.db, query.days),
    });
  });

  serve(app, ctx, contentFileApi, {
    download: async ({ params, query, request, reply }) => {
      if (!urls.verify(params.id, query.exp, query.sig)) throw new AppError('DOWNLOAD_LINK_INVALID');
      const [row] = await ctx.db.select().from(contentFiles).where(eq(contentFiles.id, params.id));
      if (!row) throw new AppError('CONTENT_FILE_NOT_FOUND');
      return sendContentFile(request, reply, contentFilePath(ctx.config.dataDir, row.filePath), row.size, row.mime, row.sha256);
    },
  });

  serve(app, ctx, appContentApi, {
    list: ({ query, request }) => listAppContent(ctx.db, urls, appBase, appUser(request).id, query),
    open: ({ params, request }) => openAppContent(ctx.db, urls, appBase, appUser(request).id, params.id),
  });
}

/** The field `kind` (before the file), then the file: sniffed, re-encoded if an image, stored, recorded. */
async function uploadContentFile(ctx: AppContext, urls: ContentUrlSigner, part: MultipartFile | undefined, who: number): Promise<ContentFile> {
  if (!part || part.fieldname !== 'file') {
    part?.file.resume();
    throw new AppError('CONTENT_FILE_MISSING');
  }
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(part.fields)) {
    if (value && !Array.isArray(value) && value.type === 'field') raw[name] = String(value.value);
  }
  // The multipart fields bypass the route validator: the same rule for unstorable text applies here.
  const unstorable = unstorableTextPath(raw) ?? (isStorableText(part.filename) ? undefined : 'file');
  if (unstorable !== undefined) {
    part.file.resume();
    throw new AppError('UNSTORABLE_TEXT', { field: `body.${unstorable}` });
  }
  const parsed = contentFileUploadFieldsSchema.safeParse(raw);
  if (!parsed.success) {
    part.file.resume();
    throw new AppError('CONTENT_FILE_MISSING');
  }
  const { kind } = parsed.data;
  const stored = await storeContentFile(ctx.config.dataDir, part.file, kind);
  const [row] = await ctx.db
    .insert(contentFiles)
    .values({ kind, mime: stored.mime, filePath: stored.relative, size: stored.size, sha256: stored.sha256, width: stored.width, height: stored.height, createdBy: who })
    .returning();
  return { id: row!.id, kind, mime: row!.mime, size: row!.size, width: row!.width, height: row!.height, url: urls.url(row!.id) };
}

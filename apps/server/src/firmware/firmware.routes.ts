import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fastifyMultipart from '@fastify/multipart';
import { z } from 'zod';
import {
  artifactKinds,
  artifactListQuerySchema,
  artifactSchema,
  artifactUpdateBodySchema,
  envelopeSchema,
  idParam,
  otaPublicKeySchema,
  pageSchema,
  snSchema,
  type ArtifactKind,
} from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError, ok } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { artifactPath } from './artifact-store.ts';
import { getArtifact, listArtifacts, toArtifact, updateArtifact, uploadArtifact } from './artifact.service.ts';
import { sendArtifactFile } from './download.ts';
import type { OtaSigner, UrlSigner } from './signing.ts';

/** URL segment of each artifact kind under /api/admin/product/. */
const segment: Record<ArtifactKind, string> = { firmware: 'firmware', voice: 'voice' };
const idParams = z.object({ id: idParam }).strict();
const downloadQuery = z.object({ sn: snSchema, exp: z.coerce.number().int(), sig: z.string().max(128) }).strict();

/** Firmware images and voice packs: upload (streamed, signed), list, release/deprecate, signed downloads. */
export async function firmwareRoutes(app: FastifyInstance, ctx: AppContext, signer: OtaSigner, urls: UrlSigner) {
  // Multipart only inside this scope: the rest of the API keeps its JSON-only body parsing.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fields: 10, fieldSize: 16 * 1024, files: 1, parts: 12 } });
    const r = scope.withTypeProvider<ZodTypeProvider>();
    const maxBytes = ctx.config.firmwareMaxMb * 1024 * 1024;

    for (const kind of artifactKinds) {
      const base = `/api/admin/product/${segment[kind]}`;
      r.get(
        base,
        { preHandler: ctx.guard('firmware'), schema: { tags: ['ota'], security: [{ bearer: [] }], querystring: artifactListQuerySchema, response: { 200: envelopeSchema(pageSchema(artifactSchema)) } } },
        async (request) => ok(request, await listArtifacts(ctx.db, kind, request.query)),
      );

      r.get(
        `${base}/:id`,
        { preHandler: ctx.guard('firmware'), schema: { tags: ['ota'], security: [{ bearer: [] }], params: idParams, response: { 200: envelopeSchema(artifactSchema) } } },
        async (request) => {
          const { row, modelCode } = await getArtifact(ctx.db, request.params.id, kind);
          return ok(request, toArtifact(row, modelCode));
        },
      );

      r.post(
        base,
        {
          preHandler: ctx.guard('firmwareWrite'),
          schema: {
            tags: ['ota'],
            security: [{ bearer: [] }],
            consumes: ['multipart/form-data'],
            description: 'Multipart: fields modelId, version, language (voice), changelogZh, changelogEn, minFromVersion, then the part `file`.',
            response: { 200: envelopeSchema(artifactSchema) },
          },
        },
        async (request) => {
          if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA');
          const who = principal(request);
          try {
            const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 16 * 1024 }, throwFileSizeLimit: false });
            const artifact = await uploadArtifact({ db: ctx.db, dataDir: ctx.config.dataDir, maxMb: ctx.config.firmwareMaxMb, signer }, kind, part, who);
            await ctx.audit(request, {
              action: 'ota.artifact.upload',
              result: 'success',
              targetType: kind,
              targetId: artifact.id,
              targetName: `${artifact.modelCode} ${artifact.version}`,
              detail: { size: artifact.size, sha256: artifact.sha256, language: artifact.language },
            });
            return ok(request, artifact);
          } catch (err) {
            const key = err instanceof AppError ? err.key : 'FAILURE';
            await ctx.audit(request, { action: 'ota.artifact.upload', result: 'failure', targetType: kind, detail: { error: key } });
            throw err;
          }
        },
      );

      r.put(
        `${base}/:id`,
        { preHandler: ctx.guard('firmwareWrite'), schema: { tags: ['ota'], security: [{ bearer: [] }], params: idParams, body: artifactUpdateBodySchema, response: { 200: envelopeSchema(artifactSchema) } } },
        async (request) => {
          const { before, after } = await updateArtifact(ctx.db, kind, request.params.id, request.body);
          await ctx.audit(request, {
            action: 'ota.artifact.update',
            result: 'success',
            targetType: kind,
            targetId: after.id,
            targetName: `${after.modelCode} ${after.version}`,
            detail: { from: { status: before.status }, to: request.body },
          });
          return ok(request, after);
        },
      );
    }
  });

  const r = app.withTypeProvider<ZodTypeProvider>();

  // Devices and tools read the verification key here; devices ship with it pinned (docs/device-protocol.md).
  r.get('/api/ota/public-key', { schema: { tags: ['ota'], response: { 200: envelopeSchema(otaPublicKeySchema) } } }, async (request) => ok(request, signer.publicKey()));

  // The signed, short-lived download link a device gets in `ota.start`. Range requests resume a download.
  r.get('/api/ota/download/:id', { schema: { tags: ['ota'], params: idParams, querystring: downloadQuery } }, async (request, reply) => {
    const { sn, exp, sig } = request.query;
    if (!urls.verify(request.params.id, sn, exp, sig)) throw new AppError('DOWNLOAD_LINK_INVALID');
    const { row } = await getArtifact(ctx.db, request.params.id);
    return sendArtifactFile(request, reply, artifactPath(ctx.config.dataDir, row.filePath), row.size, row.sha256, row.fileName);
  });
}

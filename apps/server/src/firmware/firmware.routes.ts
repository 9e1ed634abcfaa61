import type { FastifyInstance } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { artifactApi, artifactKinds, otaFileApi, type ArtifactKind } from '@mowerline/contract';
import type { AppContext } from '../context.ts';
import { AppError } from '../http/envelope.ts';
import { principal } from '../http/auth.ts';
import { serve, type Handlers } from '../http/endpoints.ts';
import { artifactPath } from './artifact-store.ts';
import { getArtifact, listArtifacts, toArtifact, updateArtifact, uploadArtifact } from './artifact.service.ts';
import { sendArtifactFile } from './download.ts';
import type { OtaSigner, UrlSigner } from './signing.ts';

type ArtifactGroup = (typeof artifactApi)[ArtifactKind];

/** Firmware images and voice packs: upload (streamed, signed), list, release/deprecate, signed downloads. */
export async function firmwareRoutes(app: FastifyInstance, ctx: AppContext, signer: OtaSigner, urls: UrlSigner) {
  // Multipart only inside this scope: the rest of the API keeps its JSON-only body parsing.
  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, { limits: { fields: 10, fieldSize: 16 * 1024, files: 1, parts: 12 } });
    for (const kind of artifactKinds) serve(scope, ctx, artifactApi[kind], artifactHandlers(ctx, signer, kind));
  });

  serve(app, ctx, otaFileApi, {
    // Devices and tools read the verification key here; devices ship with it pinned (docs/device-protocol.md).
    publicKey: async () => signer.publicKey(),

    // The signed, short-lived download link a device gets in `ota.start`. Range requests resume a download.
    download: async ({ params, query, request, reply }) => {
      if (!urls.verify(params.id, query.sn, query.exp, query.sig)) throw new AppError('DOWNLOAD_LINK_INVALID');
      const { row } = await getArtifact(ctx.db, params.id);
      return sendArtifactFile(request, reply, artifactPath(ctx.config.dataDir, row.filePath), row.size, row.sha256, row.fileName);
    },
  });
}

function artifactHandlers(ctx: AppContext, signer: OtaSigner, kind: ArtifactKind): Handlers<ArtifactGroup> {
  const maxBytes = ctx.config.firmwareMaxMb * 1024 * 1024;
  return {
    list: ({ query }) => listArtifacts(ctx.db, kind, query),

    get: async ({ params }) => {
      const { row, modelCode } = await getArtifact(ctx.db, params.id, kind);
      return toArtifact(row, modelCode);
    },

    // The contract's body documents the fields; the handler reads them, then the file, from the stream.
    upload: async ({ request, audit }) => {
      audit({ targetType: kind });
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA');
      try {
        const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 16 * 1024 }, throwFileSizeLimit: false });
        const artifact = await uploadArtifact({ db: ctx.db, dataDir: ctx.config.dataDir, maxMb: ctx.config.firmwareMaxMb, signer }, kind, part, principal(request));
        audit({ targetId: artifact.id, targetName: `${artifact.modelCode} ${artifact.version}`, detail: { size: artifact.size, sha256: artifact.sha256, language: artifact.language } });
        return artifact;
      } catch (err) {
        // The registrar audits catalogue failures; a broken multipart stream is a failed upload too.
        if (!(err instanceof AppError)) await ctx.audit(request, { action: `ota.${kind}.upload`, result: 'failure', targetType: kind, detail: { error: 'FAILURE' } });
        throw err;
      }
    },

    update: async ({ params, body, audit }) => {
      audit({ targetType: kind, targetId: params.id });
      const { before, after } = await updateArtifact(ctx.db, kind, params.id, body);
      audit({ targetName: `${after.modelCode} ${after.version}`, detail: { from: { status: before.status }, to: body } });
      return after;
    },
  };
}

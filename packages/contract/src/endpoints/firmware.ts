import { z } from 'zod';
import { idParam, pageSchema } from '../envelope.ts';
import { endpoint, deviceAccess, publicAccess, staff } from '../endpoint.ts';
import { snSchema } from '../device-protocol.ts';
import { artifactKinds, type ArtifactKind } from '../ota.ts';
import { artifactListQuerySchema, artifactSchema, artifactUpdateBodySchema, artifactUploadFieldsSchema, otaPublicKeySchema } from '../firmware.ts';

const tag = 'ota';
const idParams = z.object({ id: idParam }).strict();

/** One artifact kind's endpoints under `/api/admin/product/<kind>`: both kinds share every schema. */
function artifactEndpoints(kind: ArtifactKind) {
  const base = `/api/admin/product/${kind}` as const;
  return {
    list: endpoint({ method: 'GET', path: base, access: staff('firmware'), tag, query: artifactListQuerySchema, response: pageSchema(artifactSchema) }),
    get: endpoint({ method: 'GET', path: `${base}/:id`, access: staff('firmware'), tag, params: idParams, response: artifactSchema, errors: ['ARTIFACT_NOT_FOUND'] }),
    upload: endpoint({
      method: 'POST',
      path: base,
      access: staff('firmwareWrite'),
      tag,
      summary: 'Upload an image or voice pack: the fields first, then the part `file` (streamed, hashed and signed)',
      consumes: 'multipart/form-data',
      body: artifactUploadFieldsSchema,
      response: artifactSchema,
      errors: ['ARTIFACT_FILE_MISSING', 'ARTIFACT_BAD_TYPE', 'ARTIFACT_TOO_LARGE', 'ARTIFACT_VERSION_TAKEN', 'ARTIFACT_LANGUAGE_REQUIRED', 'MODEL_NOT_FOUND', 'ARTIFACT_VERSION_MALFORMED', 'ARTIFACT_MIN_FROM_ABOVE'],
      audit: `ota.${kind}.upload` as const,
    }),
    update: endpoint({
      method: 'PUT',
      path: `${base}/:id`,
      access: staff('firmwareWrite'),
      tag,
      summary: 'Changelog edits, release, deprecate (never back to draft)',
      params: idParams,
      body: artifactUpdateBodySchema,
      response: artifactSchema,
      errors: ['ARTIFACT_NOT_FOUND', 'ARTIFACT_STATUS'],
      audit: `ota.${kind}.update` as const,
    }),
  };
}

/** Firmware images (`/product/firmware`) and voice packs (`/product/voice-version`), by kind. */
export const artifactApi = Object.fromEntries(artifactKinds.map((kind) => [kind, artifactEndpoints(kind)])) as Record<ArtifactKind, ReturnType<typeof artifactEndpoints>>;

/** What devices read: the verification key, and the signed, short-lived download link of `ota.start`. */
export const otaFileApi = {
  publicKey: endpoint({ method: 'GET', path: '/api/ota/public-key', access: publicAccess, tag, summary: 'The Ed25519 key devices verify artifacts with', response: otaPublicKeySchema }),
  download: endpoint({
    method: 'GET',
    path: '/api/ota/download/:id',
    access: deviceAccess,
    tag,
    summary: 'An artifact, by the signed link a device gets in ota.start; Range requests resume (206)',
    params: idParams,
    query: z.object({ sn: snSchema, exp: z.coerce.number().int(), sig: z.string().max(128) }).strict(),
    produces: 'application/octet-stream',
    errors: ['DOWNLOAD_LINK_INVALID', 'ARTIFACT_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
  }),
};

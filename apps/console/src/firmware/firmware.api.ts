import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { artifactApi, otaApi, type ArtifactKind, type ArtifactListQuery, type CampaignAction, type EndpointBodyInput } from '@mowerline/contract';
import { call, endpointKey, invalidate, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';

/** Artifacts of a kind, one page. */
export function useArtifacts(kind: ArtifactKind, query: Partial<ArtifactListQuery>) {
  return useEndpoint(artifactApi[kind].list, { query }, { placeholderData: keepPreviousData });
}

/** Released artifacts of a kind, for the campaign form. */
export function useReleasedArtifacts(kind: ArtifactKind) {
  return useArtifacts(kind, { status: 'released', pageSize: 100 });
}

export interface UploadInput {
  fields: EndpointBodyInput<(typeof artifactApi)[ArtifactKind]['upload']>;
  file: File;
  onProgress(percent: number): void;
}

/**
 * Multipart: the fields first, then the file (the server checks the fields before it stores a
 * byte). Progress comes from axios' onUploadProgress through the one request wrapper.
 */
export function useUploadArtifact(kind: ArtifactKind) {
  const client = useQueryClient();
  const api = artifactApi[kind];
  return useMutation({
    mutationFn: ({ fields, file, onProgress }: UploadInput) =>
      call(api.upload, { body: { ...fields, file } }, { onUploadProgress: (e) => onProgress(e.total ? Math.round((e.loaded * 100) / e.total) : 0) }),
    onSuccess: () => invalidate(client, api.list),
  });
}

/** Release, deprecate, changelog. */
export function useUpdateArtifact(kind: ArtifactKind) {
  const api = artifactApi[kind];
  return useEndpointMutation(api.update, {
    toInput: ({ id, body }: { id: number; body: EndpointBodyInput<typeof api.update> }) => ({ params: { id }, body }),
    invalidates: [api.list],
  });
}

/** Campaigns of a kind — refreshed every few seconds while something runs. */
export function useCampaigns(kind: ArtifactKind, page: number, pageSize: number) {
  return useEndpoint(
    otaApi.listCampaigns,
    { query: { kind, page, pageSize } },
    { placeholderData: keepPreviousData, refetchInterval: (q) => (q.state.data?.list.some((c) => c.status === 'running') ? 2000 : 10_000) },
  );
}

/** One campaign's live progress. */
export function useCampaign(id: number | undefined) {
  return useEndpoint(otaApi.getCampaign, { params: { id: id ?? 0 } }, { enabled: id !== undefined, refetchInterval: (q) => (q.state.data?.status === 'running' ? 1500 : false) });
}

/** A campaign moves artifacts' use, the campaign list and the upgrade log: refresh all of OTA. */
const otaPaths: Invalidation[] = [
  otaApi.listCampaigns.path, // and each campaign below it
  artifactApi.firmware.list,
  artifactApi.voice.list,
  otaApi.upgradeLog,
  otaApi.deviceUpgradeHistory,
];

/** What a campaign would do before it is created (how many updated, how many skipped and why). */
export function useCampaignPreview(body: EndpointBodyInput<typeof otaApi.previewCampaign> | undefined) {
  // Silent: a target still being typed (an unknown SN) is answered in the form, not by a toast.
  return useQuery({
    queryKey: endpointKey(otaApi.previewCampaign, { body: body! }),
    queryFn: () => call(otaApi.previewCampaign, { body: body! }, { silent: true }),
    enabled: body !== undefined,
    retry: false,
  });
}

export function useCreateCampaign() {
  return useEndpointMutation(otaApi.createCampaign, { toInput: (body: EndpointBodyInput<typeof otaApi.createCampaign>) => ({ body }), invalidates: otaPaths });
}

const actionEndpoint = { pause: otaApi.pauseCampaign, resume: otaApi.resumeCampaign, cancel: otaApi.cancelCampaign } as const;

/** pause / resume / cancel: one hook, each action its own endpoint. */
export function useCampaignAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CampaignAction }) => call(actionEndpoint[action], { params: { id } }),
    onSuccess: () => Promise.all(otaPaths.map((path) => invalidate(client, path))),
  });
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Artifact,
  ArtifactKind,
  ArtifactListQuery,
  ArtifactUpdateBody,
  Campaign,
  CampaignAction,
  CampaignCreateBody,
  Page,
} from '@mowerline/contract';
import { get, post, put, request } from '../api/request.ts';

const segment: Record<ArtifactKind, string> = { firmware: 'firmware', voice: 'voice' };

/** GET /api/admin/product/firmware | voice */
export function useArtifacts(kind: ArtifactKind, query: Partial<ArtifactListQuery>) {
  return useQuery({
    queryKey: ['ota', 'artifacts', kind, query],
    queryFn: () => get<Page<Artifact>>(`/api/admin/product/${segment[kind]}`, query),
    placeholderData: keepPreviousData,
  });
}

/** Released artifacts of a kind, for the campaign form. */
export function useReleasedArtifacts(kind: ArtifactKind) {
  return useArtifacts(kind, { status: 'released', pageSize: 100 });
}

export interface UploadInput {
  fields: Record<string, string>;
  file: File;
  onProgress(percent: number): void;
}

/**
 * POST multipart: the fields first, then the file (the server checks the fields before it stores
 * a byte). Progress comes from axios' onUploadProgress through the one request wrapper.
 */
export function useUploadArtifact(kind: ArtifactKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ fields, file, onProgress }: UploadInput) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', file, file.name);
      return request<Artifact>({
        method: 'POST',
        url: `/api/admin/product/${segment[kind]}`,
        data: form,
        onUploadProgress: (e) => onProgress(e.total ? Math.round((e.loaded * 100) / e.total) : 0),
      });
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['ota', 'artifacts', kind] }),
  });
}

/** PUT /api/admin/product/firmware/:id — release, deprecate, changelog. */
export function useUpdateArtifact(kind: ArtifactKind) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ArtifactUpdateBody }) => put<Artifact>(`/api/admin/product/${segment[kind]}/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['ota', 'artifacts', kind] }),
  });
}

/** GET /api/admin/ota/campaign — refreshed every few seconds while something runs. */
export function useCampaigns(kind: ArtifactKind, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['ota', 'campaigns', kind, page, pageSize],
    queryFn: () => get<Page<Campaign>>('/api/admin/ota/campaign', { kind, page, pageSize }),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.list.some((c) => c.status === 'running') ? 2000 : 10_000),
  });
}

/** GET /api/admin/ota/campaign/:id — live progress. */
export function useCampaign(id: number | undefined) {
  return useQuery({
    queryKey: ['ota', 'campaign', id],
    queryFn: () => get<Campaign>(`/api/admin/ota/campaign/${id}`),
    enabled: id !== undefined,
    refetchInterval: (q) => (q.state.data?.status === 'running' ? 1500 : false),
  });
}

export function useCreateCampaign() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CampaignCreateBody) => post<Campaign>('/api/admin/ota/campaign', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['ota'] }),
  });
}

export function useCampaignAction() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: CampaignAction }) => post<Campaign>(`/api/admin/ota/campaign/${id}/${action}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['ota'] }),
  });
}

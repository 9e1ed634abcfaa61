import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { contentApi, type ContentFileKind, type ContentListQuery, type EndpointBodyInput } from '@mowerline/contract';
import { call, invalidate, useEndpoint, useEndpointMutation, type Invalidation } from '../api/endpoint-client.ts';

/** GET /api/admin/content: newest first, filtered. */
export const useContentList = (query: Partial<ContentListQuery>) => useEndpoint(contentApi.list, { query }, { placeholderData: keepPreviousData });

/** Writes change the list and the dashboard's figures. */
const invalidates: Invalidation[] = [contentApi];
export type ContentWriteInput = EndpointBodyInput<typeof contentApi.create>;

export const useCreateContent = () => useEndpointMutation(contentApi.create, { toInput: (body: ContentWriteInput) => ({ body }), invalidates });
export const useUpdateContent = () =>
  useEndpointMutation(contentApi.update, {
    toInput: ({ id, body }: { id: number; body: ContentWriteInput }) => ({ params: { id }, body }),
    invalidates,
  });
export const useSetContentState = () =>
  useEndpointMutation(contentApi.setState, { toInput: ({ id, state }: { id: number; state: 'draft' | 'published' | 'archived' }) => ({ params: { id }, body: { state } }), invalidates });

/** POST /api/admin/content/file: the field `kind`, then the file (multipart through the one request wrapper). */
export function useUploadContentFile() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ContentFileKind; file: File }) => call(contentApi.upload, { body: { kind, file } }),
    onSuccess: () => invalidate(client, contentApi.list),
  });
}

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AppPlatform, AppVersion, AppVersionCreateBody, Page } from '@mowerline/contract';
import { get, post, put } from '../api/request.ts';

/** GET /api/admin/product/app-version */
export function useAppVersions(platform: AppPlatform | undefined, page: number, pageSize: number) {
  return useQuery({
    queryKey: ['app-version', platform, page, pageSize],
    queryFn: () => get<Page<AppVersion>>('/api/admin/product/app-version', { platform, page, pageSize }),
    placeholderData: keepPreviousData,
  });
}

export function useCreateAppVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AppVersionCreateBody) => post<AppVersion>('/api/admin/product/app-version', body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['app-version'] }),
  });
}

export function useUpdateAppVersion() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: Partial<Pick<AppVersion, 'forceUpdate' | 'minSupportedVersion' | 'changelogZh' | 'changelogEn' | 'downloadUrl'>> }) =>
      put<AppVersion>(`/api/admin/product/app-version/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['app-version'] }),
  });
}

import { keepPreviousData } from '@tanstack/react-query';
import { appVersionApi, type AppPlatform, type EndpointBodyInput } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';

export function useAppVersions(platform: AppPlatform | undefined, page: number, pageSize: number) {
  return useEndpoint(appVersionApi.list, { query: { platform, page, pageSize } }, { placeholderData: keepPreviousData });
}

export function useCreateAppVersion() {
  return useEndpointMutation(appVersionApi.create, { toInput: (body: EndpointBodyInput<typeof appVersionApi.create>) => ({ body }), invalidates: [appVersionApi.list] });
}

export function useWithdrawAppVersion() {
  return useEndpointMutation(appVersionApi.withdraw, { toInput: (id: number) => ({ params: { id } }), invalidates: [appVersionApi.list] });
}

export function useUpdateAppVersion() {
  return useEndpointMutation(appVersionApi.update, {
    toInput: ({ id, body }: { id: number; body: EndpointBodyInput<typeof appVersionApi.update> }) => ({ params: { id }, body }),
    invalidates: [appVersionApi.list],
  });
}

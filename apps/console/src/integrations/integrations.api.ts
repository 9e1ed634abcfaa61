import { keepPreviousData } from '@tanstack/react-query';
import { apiKeyApi, webhookApi, type EndpointBodyInput, type WebhookDelivery } from '@mowerline/contract';
import { useEndpoint, useEndpointMutation } from '../api/endpoint-client.ts';

export const useApiKeys = (page: number, pageSize: number) => useEndpoint(apiKeyApi.list, { query: { page, pageSize } }, { placeholderData: keepPreviousData });

export const useCreateApiKey = () =>
  useEndpointMutation(apiKeyApi.create, { toInput: (body: EndpointBodyInput<typeof apiKeyApi.create>) => ({ body }), invalidates: [apiKeyApi.list] });

export const useRevokeApiKey = () => useEndpointMutation(apiKeyApi.revoke, { toInput: (id: number) => ({ params: { id } }), invalidates: [apiKeyApi.list] });

export const useWebhooks = () => useEndpoint(webhookApi.list);

export const useCreateWebhook = () =>
  useEndpointMutation(webhookApi.create, { toInput: (body: EndpointBodyInput<typeof webhookApi.create>) => ({ body }), invalidates: [webhookApi.list] });

export const useUpdateWebhook = () =>
  useEndpointMutation(webhookApi.update, {
    toInput: ({ id, body }: { id: number; body: EndpointBodyInput<typeof webhookApi.update> }) => ({ params: { id }, body }),
    invalidates: [webhookApi.list, webhookApi.get],
  });

export const useRemoveWebhook = () => useEndpointMutation(webhookApi.remove, { toInput: (id: number) => ({ params: { id } }), invalidates: [webhookApi.list] });

export const useTestWebhook = () => useEndpointMutation(webhookApi.test, { toInput: (id: number) => ({ params: { id } }), invalidates: [webhookApi.deliveries] });

export const useRetryDelivery = () => useEndpointMutation(webhookApi.retry, { toInput: (id: number) => ({ params: { id } }), invalidates: [webhookApi.deliveries] });

/** The delivery log; refreshed every 2 s while a delivery is still pending. */
export const useDeliveries = (id: number | undefined, page: number, pageSize: number) =>
  useEndpoint(
    webhookApi.deliveries,
    { params: { id: id ?? 0 }, query: { page, pageSize } },
    {
      enabled: id !== undefined,
      placeholderData: keepPreviousData,
      refetchInterval: (q) => ((q.state.data?.list as WebhookDelivery[] | undefined)?.some((d) => d.status === 'pending') ? 2000 : false),
    },
  );

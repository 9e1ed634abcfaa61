import { eventDeliveryApi } from '@mowerline/contract';
import { useEndpoint } from '../api/endpoint-client.ts';

/** How often the panel asks again on its own while it is on screen. */
export const EVENT_DELIVERY_REFRESH_MS = 10_000;

/** Per subscriber of the event stream: pending, failing, lag, last error (admins only). */
export const useEventDelivery = () =>
  useEndpoint(eventDeliveryApi.status, {}, { refetchInterval: EVENT_DELIVERY_REFRESH_MS, refetchIntervalInBackground: false });

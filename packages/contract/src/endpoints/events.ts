import { z } from 'zod';
import { endpoint, staff } from '../endpoint.ts';
import { eventSubscriberStatusSchema } from '../events.ts';

export const eventDeliveryApi = {
  /** Per subscriber of the event stream: pending deliveries, their lag, failures and the last error. */
  status: endpoint({
    method: 'GET',
    path: '/api/admin/system/event-delivery',
    access: staff('systemLog'),
    tag: 'system',
    summary: 'Event delivery: lag and failures per subscriber',
    response: z.object({ subscribers: z.array(eventSubscriberStatusSchema) }),
  }),
};

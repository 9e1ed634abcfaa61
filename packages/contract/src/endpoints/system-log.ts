import { pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { systemLogQuerySchema, systemLogSchema } from '../system-log.ts';

export const systemLogApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/system/log',
    access: staff('systemLog'),
    tag: 'system-log',
    summary: 'The audit log: who did what to which target, from where, with what result',
    query: systemLogQuerySchema,
    response: pageSchema(systemLogSchema),
  }),
};

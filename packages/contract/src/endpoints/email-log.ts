import { pageSchema } from '../envelope.ts';
import { emailLogQuerySchema, emailLogSchema } from '../email-log.ts';
import { endpoint, staff } from '../endpoint.ts';

export const emailLogApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/admin/system/email-log',
    access: staff('emailLog'),
    tag: 'email-log',
    summary: 'Every mail, sent or not: recipient, subject, template, status and the delivery error',
    query: emailLogQuerySchema,
    response: pageSchema(emailLogSchema),
  }),
};

import { z } from 'zod';
import { pageSchema } from '../envelope.ts';
import { endpoint, staff } from '../endpoint.ts';
import { roleInfoSchema, roleListQuerySchema, staffCreateBodySchema, staffListQuerySchema, staffUpdateBodySchema, staffUserSchema, staffWriteResultSchema } from '../staff.ts';

const tag = 'staff';
const access = staff('staff');

/**
 * Staff accounts: admins only (the `staff` resource), enforced on the server whatever the console
 * shows. Creation and changes are audited by the services (approve, update and password reset are
 * separate actions of one call).
 */
export const staffApi = {
  list: endpoint({ method: 'GET', path: '/api/admin/user', access, tag, summary: 'List staff accounts', query: staffListQuerySchema, response: pageSchema(staffUserSchema) }),
  create: endpoint({
    method: 'POST',
    path: '/api/admin/user',
    access,
    tag,
    summary: 'Add a staff account; without a password an invitation link is issued (returned once when it could not be mailed)',
    body: staffCreateBodySchema,
    response: staffWriteResultSchema,
    errors: ['WEAK_PASSWORD', 'USERNAME_TAKEN'],
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/admin/user',
    access,
    tag,
    summary: 'Edit, approve, disable a staff account or reset its password',
    body: staffUpdateBodySchema,
    response: staffWriteResultSchema,
    errors: ['NOT_FOUND', 'LAST_ADMIN', 'SELF_CHANGE', 'BACK_TO_PENDING', 'WEAK_PASSWORD', 'NO_EMAIL'],
    // Changes roles and disables accounts.
    stepUp: true,
  }),
  roles: endpoint({
    method: 'GET',
    path: '/api/admin/user/role',
    access,
    tag,
    summary: 'Roles with descriptions and member counts',
    query: roleListQuerySchema,
    response: z.array(roleInfoSchema),
  }),
};

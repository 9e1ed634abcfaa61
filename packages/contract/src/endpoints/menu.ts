import { endpoint, staff } from '../endpoint.ts';
import { menuSchema } from '../menu.ts';

/** POST /api/user/menu: the shared route table, cut down to what the caller's role may open. */
export const menuApi = {
  menu: endpoint({ method: 'POST', path: '/api/user/menu', access: staff(), tag: 'menu', summary: 'The menu tree for my role', response: menuSchema, enrolmentAllowed: true }),
};

import { z } from 'zod';
import { roles } from './roles.ts';
import type { RouteDef } from './routes.ts';

// Kept apart from the route table (routes.ts, zod-free) so the console's first screen, which
// needs the table, does not load zod.

/** The menu item shape as the menu endpoint answers it (recursive: groups hold children). */
export const routeMetaSchema = z.object({
  locale: z.string(),
  requiresAuth: z.boolean(),
  icon: z.string().optional(),
  order: z.number().optional(),
  roles: z.array(z.union([z.enum(roles), z.literal('*')])),
  hideInMenu: z.boolean().optional(),
  ignoreCache: z.boolean().optional(),
  activeMenu: z.string().optional(),
});
// Registered under an id so the OpenAPI document can describe the recursion as a named component.
export const routeDefSchema: z.ZodType<RouteDef> = z
  .object({
    path: z.string(),
    name: z.string(),
    meta: routeMetaSchema,
    children: z.array(z.lazy(() => routeDefSchema)).optional(),
  })
  .meta({ id: 'RouteDef' });
/** POST /api/user/menu */
export const menuSchema = z.array(routeDefSchema);

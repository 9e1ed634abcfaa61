import { flattenRoutes } from '@mowerline/contract';

/** The absolute path of a route by its name, from the contract's route table. */
export function routePath(name: string): string {
  return flattenRoutes().find((route) => route.name === name)?.fullPath ?? '/';
}

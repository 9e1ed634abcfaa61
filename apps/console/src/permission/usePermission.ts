import type { RoleRule } from '@mowerline/contract';
import { useSession } from '../session/session.store.ts';
import { allowedFor } from './permission.ts';

/** The current role and the check against it; re-renders when the role is switched. */
export function usePermission() {
  const role = useSession((s) => s.user?.role);
  return { role, can: (roles: readonly RoleRule[]) => allowedFor(role, roles) };
}

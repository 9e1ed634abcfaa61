import type { ReactNode } from 'react';
import type { RoleRule } from '@mowerline/contract';
import { usePermission } from './usePermission.ts';

interface PermissionProps {
  roles: readonly RoleRule[];
  children: ReactNode;
}

/** Renders its children only for the listed roles. */
export function Permission({ roles, children }: PermissionProps) {
  const { can } = usePermission();
  return can(roles) ? <>{children}</> : null;
}

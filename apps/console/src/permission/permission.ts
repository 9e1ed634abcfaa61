import { can, type RoleRule } from '@mowerline/contract';

/** Spec §6, word for word: what using the permission check without a role list throws. */
export const MISSING_ROLES_MESSAGE = `need roles! Like v-permission="['admin','user']"`;

/**
 * The permission rule for UI elements: the role list is required (an empty list allows everyone,
 * '*' every role, otherwise the role must be listed — contract `can`).
 */
export function allowedFor(role: string | undefined, roles: readonly RoleRule[] | undefined): boolean {
  if (!Array.isArray(roles)) throw new Error(MISSING_ROLES_MESSAGE);
  return can(role, roles);
}

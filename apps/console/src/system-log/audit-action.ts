import { auditActions } from '@mowerline/contract';
import type { Translate } from '../locale/i18n.ts';

/** A translation, or the raw text when the key is missing (an action newer than this console). */
function labelOr(t: Translate, key: string, raw: string): string {
  const text = t(key);
  return text === key ? raw : text;
}

/** `auth.login` → "Sign in"; unknown actions are shown as recorded. */
export const actionLabel = (t: Translate, action: string) => labelOr(t, `audit.action.${action}`, action);

/** The area before the first dot, e.g. `staff` for `staff.password.reset`. */
export const actionFamily = (action: string) => action.split('.')[0]!;

/** `staff` → "Staff accounts" (filtering by a family matches every action in it, server-side). */
export const familyLabel = (t: Translate, family: string) => labelOr(t, `audit.family.${family}`, `${family}.*`);

export const targetLabel = (t: Translate, targetType: string) => labelOr(t, `audit.target.${targetType}`, targetType);

/** The action filter's options: each family (matches all of it), then its actions. */
export function actionGroups(): Array<{ family: string; actions: string[] }> {
  const groups = new Map<string, string[]>();
  for (const action of auditActions) {
    const family = actionFamily(action);
    groups.set(family, [...(groups.get(family) ?? []), action]);
  }
  return [...groups].map(([family, actions]) => ({ family, actions }));
}

/**
 * Who did it: what the server did on its own (the demo's imports at start, background jobs) is
 * recorded as "system" with no user id and shown as "System" / "系统", never as a person.
 */
export function actorLabel(t: Translate, log: { actorId: number | null; actorName: string }): string {
  if (log.actorId === null && log.actorName === 'system') return t('systemLog.actor.system');
  return log.actorName || '-';
}

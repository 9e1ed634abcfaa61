import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditTargetType } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
import { SYSTEM_ACTOR, type Principal } from '../http/auth.ts';
import { requestMeta } from '../http/request-meta.ts';
import { systemLogs } from './system-log.sql.ts';

export interface AuditEntry {
  action: AuditAction;
  result: 'success' | 'failure';
  targetType?: AuditTargetType;
  targetId?: string | number;
  targetName?: string;
  detail?: Record<string, unknown>;
  /** Defaults to the signed-in caller; sign-in attempts name the username tried. */
  actor?: { id: number | null; name: string };
}

/** The signed-in caller; the server acting on its own has no user id, only the name "system". */
function actorOf(principal: Principal | undefined): { id: number | null; name: string } {
  if (!principal) return { id: null, name: '' };
  if (principal.system) return { id: null, name: SYSTEM_ACTOR };
  return { id: principal.id, name: principal.username };
}

export type Audit = (request: FastifyRequest, entry: AuditEntry) => Promise<void>;

/** Records one action in the system log: who, what, target, from which IP and browser, result. */
export function createAudit(db: Db): Audit {
  return async (request, entry) => {
    const actor = entry.actor ?? actorOf(request.principal);
    const { ip, userAgent } = requestMeta(request);
    await db.insert(systemLogs).values({
      actorId: actor.id,
      actorName: actor.name,
      action: entry.action,
      targetType: entry.targetType ?? '',
      targetId: entry.targetId === undefined ? '' : String(entry.targetId),
      targetName: entry.targetName ?? '',
      ip,
      userAgent,
      result: entry.result,
      detail: entry.detail ?? {},
    });
  };
}

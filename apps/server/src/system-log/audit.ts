import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditTargetType } from '@mowerline/contract';
import type { Db } from '../db/client.ts';
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

export type Audit = (request: FastifyRequest, entry: AuditEntry) => Promise<void>;

/** Records one action in the system log: who, what, target, from which IP and browser, result. */
export function createAudit(db: Db): Audit {
  return async (request, entry) => {
    const actor = entry.actor ?? (request.principal ? { id: request.principal.id, name: request.principal.username } : { id: null, name: '' });
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

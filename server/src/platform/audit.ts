// Audit trail of staff actions (DESIGN.md §3: every staff call that changes something).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';

export interface AuditEntry {
  actorUserId: number | null;
  action: string;
  targetType?: string;
  targetId?: string | number;
  details?: unknown;
  requestId?: string;
  ip?: string;
}

export async function writeAudit(db: Db, entry: AuditEntry) {
  await db.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId == null ? null : String(entry.targetId),
    details: entry.details == null ? null : JSON.stringify(entry.details),
    requestId: entry.requestId,
    ip: entry.ip,
  });
}

/** An audit row for the request itself; routes may call it to add details, else the hook below writes one. */
export function auditRequest(db: Db, request: FastifyRequest, details?: unknown) {
  const params = (request.params ?? {}) as Record<string, string>;
  const targetId = params.id ?? params.user_id ?? params.key;
  return writeAudit(db, {
    actorUserId: request.actor?.user.userId ?? null,
    action: `${request.method} ${request.routeOptions.url ?? request.url}`,
    targetId,
    details,
    requestId: request.id,
    ip: request.ip,
  });
}

export const auditPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.staffAudit || request.method === 'GET' || request.method === 'HEAD' || reply.statusCode >= 400) return payload;
    await auditRequest(app.ctx.db, request).catch((err) => request.log.error({ err }, 'audit write failed'));
    return payload;
  });
});

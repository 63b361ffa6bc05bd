// Audit trail of staff actions (DESIGN.md §3: every staff call that changes something): who, what, when,
// and on which record — the target comes from the path *or the body* (POST /giveAccess names its user in
// the body) — with a small diff where it matters (role, status, access), which the route supplies.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';

export interface AuditTarget {
  type: string;
  id: string | number;
}

/** What changed on the target, field by field. */
export type AuditChanges = Record<string, { from: unknown; to: unknown }>;

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by a staff route to name its target or record what it changed; read by the audit hook. */
    audited?: { target?: AuditTarget; changes?: AuditChanges; details?: Record<string, unknown> };
  }
}

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

/** Id fields that name a record, most specific first, and the record type each names. */
const TARGET_FIELDS: [field: string, type: string][] = [
  ['purchase_id', 'purchase'],
  ['invoice_id', 'invoice'],
  ['user_id', 'user'],
  ['product_id', 'product'],
  ['organization_id', 'organization'],
  ['key', 'config'],
];

const asRecord = (value: unknown): Record<string, unknown> => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {});
const isIdValue = (value: unknown): value is string | number => (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && value !== '');

/** The record a request acts on: what the route named, else the first id field of its path, then its body. */
export function auditTargetOf(request: Pick<FastifyRequest, 'params' | 'body' | 'audited' | 'routeOptions'>): AuditTarget | null {
  if (request.audited?.target) return request.audited.target;
  const params = asRecord(request.params);
  const body = asRecord(request.body);
  for (const source of [params, body]) {
    for (const [field, type] of TARGET_FIELDS) if (isIdValue(source[field])) return { type, id: source[field] };
  }
  // /things/:id — the type is the route's OpenAPI tag (e.g. 'conversations').
  const tags = (request.routeOptions.schema as { tags?: string[] } | undefined)?.tags;
  if (isIdValue(params.id)) return { type: tags?.[0] ?? 'record', id: params.id };
  return null;
}

/** An audit row for the request itself, with its target and what the route recorded. */
export function auditRequest(db: Db, request: FastifyRequest, details?: Record<string, unknown>) {
  const target = auditTargetOf(request);
  const { changes, details: recorded } = request.audited ?? {};
  const merged = { ...recorded, ...details, ...(changes ? { changes } : {}) };
  return writeAudit(db, {
    actorUserId: request.actor?.user.userId ?? null,
    action: `${request.method} ${request.routeOptions.url ?? request.url}`,
    targetType: target?.type,
    targetId: target?.id,
    details: Object.keys(merged).length > 0 ? merged : undefined,
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

// The mail outbox as staff read it (GET /api/admin/outbox): the newest rows, optionally for one address.
// Framework-free (DESIGN.md §7): the route validates and presents.
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export function listOutbox({ db, to, limit }: { db: Db; to?: string; limit: number }): Promise<OutboxRow[]> {
  return db
    .select()
    .from(mailOutbox)
    .where(to ? eq(mailOutbox.to, to) : undefined)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.mailId))
    .limit(limit);
}

export function presentOutboxMail(row: OutboxRow) {
  return {
    mail_id: row.mailId,
    to: row.to,
    subject: row.subject,
    text: row.text,
    kind: row.kind,
    status: row.status,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

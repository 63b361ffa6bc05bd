// The SMS outbox as admins read it (GET /api/admin/sms-outbox): the newest rows, optionally for one number.
import type { SmsOutboxItem } from '@pluma/common/phone-sign-in';
import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { smsOutbox } from '../../db/schema';

export type SmsOutboxRow = typeof smsOutbox.$inferSelect;

export function listSmsOutbox({ db, to, limit }: { db: Db; to?: string; limit: number }): Promise<SmsOutboxRow[]> {
  return db
    .select()
    .from(smsOutbox)
    .where(to ? eq(smsOutbox.to, to) : undefined)
    .orderBy(desc(smsOutbox.createdAt), desc(smsOutbox.smsId))
    .limit(limit);
}

export function presentSms(row: SmsOutboxRow): SmsOutboxItem {
  return {
    sms_id: row.smsId,
    to: row.to,
    text: row.text,
    kind: row.kind,
    status: row.status,
    provider: row.provider,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
  };
}

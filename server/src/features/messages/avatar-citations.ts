// The passages an avatar's answer cites (issue 13 item 3: "each avatar reply cites its passages under the
// answer (file, page; click to see the passage)"), kept in message_citations. A deleted file's rows go with
// it (cascade from files), so its passages are never shown again, not even under older answers; the
// answer's own text stays as it was written.
import type { MessageCitation } from '@pluma/common/messages-api';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { files, messageCitations } from '../../db/schema';
import { filesOfMessages } from './attachments';
import { presentMessage, type MessageRow } from './present';

/** The citations of these messages, by message id. Only avatar answers can have any: others cost no query. */
export async function citationsOf(db: Db, rows: readonly Pick<MessageRow, 'messageId' | 'avatarId' | 'role'>[]): Promise<Map<number, MessageCitation[]>> {
  const ids = rows.filter((row) => row.avatarId !== null && row.role === 'assistant').map((row) => row.messageId);
  const byMessage = new Map<number, MessageCitation[]>();
  if (ids.length === 0) return byMessage;
  const found = await db
    .select()
    .from(messageCitations)
    .where(inArray(messageCitations.messageId, ids))
    .orderBy(asc(messageCitations.messageId), asc(messageCitations.ordinal));
  for (const row of found) {
    const list = byMessage.get(row.messageId) ?? [];
    list.push({ file_id: row.fileId, name: row.fileName, page: row.page, heading: row.heading, text: row.text });
    byMessage.set(row.messageId, list);
  }
  return byMessage;
}

/** Messages as presented, each with its citations and (prompts) its attached files: two queries at most, side by side. */
export async function presentMessages(db: Db, rows: readonly MessageRow[]) {
  const [citations, attached] = await Promise.all([citationsOf(db, rows), filesOfMessages(db, rows.filter((row) => row.role === 'user').map((row) => row.messageId))]);
  return rows.map((row) => presentMessage(row, citations.get(row.messageId), attached.get(row.messageId)));
}

/** Replaces an answer's citations (a rewritten answer cites what it was given this time). */
export async function saveCitations(db: Db, messageId: number, citations: readonly MessageCitation[]): Promise<void> {
  await db.delete(messageCitations).where(eq(messageCitations.messageId, messageId));
  if (citations.length === 0) return;
  const rows = (list: readonly MessageCitation[]) =>
    list.map((c, index) => ({ messageId, fileId: c.file_id, ordinal: index + 1, fileName: c.name, page: c.page, heading: c.heading, text: c.text }));
  try {
    await db.insert(messageCitations).values(rows(citations));
  } catch {
    // A file deleted since its passages were read (foreign key): the others are cited, it is not.
    const existing = new Set((await db.select({ fileId: files.fileId }).from(files).where(inArray(files.fileId, citations.map((c) => c.file_id)))).map((f) => f.fileId));
    const kept = citations.filter((c) => existing.has(c.file_id));
    if (kept.length > 0) await db.insert(messageCitations).values(rows(kept));
  }
}

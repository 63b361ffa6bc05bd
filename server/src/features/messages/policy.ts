// Who may see a message: the owner of its conversation (messages carry that user's id). Anything else
// is a 404, including a child id (message_id) that belongs to another conversation (DESIGN.md §6).
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { messages } from '../../db/schema';
import { notFound } from '../../platform/http/errors';
import type { MessageRow } from './present';

export async function requireOwnMessage(db: Db | Tx, userId: number, messageId: number, conversationId?: number): Promise<MessageRow> {
  const conditions = [eq(messages.userId, userId), eq(messages.messageId, messageId)];
  if (conversationId !== undefined) conditions.push(eq(messages.conversationId, conversationId));
  const [row] = await db
    .select()
    .from(messages)
    .where(and(...conditions))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

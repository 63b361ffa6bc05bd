// Who may see a conversation: its owner, only. Anything else is a 404 (DESIGN.md §3), never a 403, so
// ids of other users' conversations reveal nothing. Organization membership checks arrive with
// organizations; until then organization_id narrows a user's own conversations and grants nothing.
import { and, eq, type Placeholder, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations } from '../../db/schema';
import { notFound } from '../../platform/http/errors';

export type ConversationRow = typeof conversations.$inferSelect;

/** The SQL scope of every conversation query: the actor's own rows (a placeholder in prepared queries). */
export function ownConversations(userId: number | Placeholder): SQL {
  return eq(conversations.userId, userId);
}

export async function findOwnConversation(db: Db | Tx, userId: number, conversationId: number): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(ownConversations(userId), eq(conversations.conversationId, conversationId)))
    .limit(1);
  return row ?? null;
}

/** The actor's conversation, or a 404. */
export async function requireOwnConversation(db: Db | Tx, userId: number, conversationId: number): Promise<ConversationRow> {
  const row = await findOwnConversation(db, userId, conversationId);
  if (!row) throw notFound();
  return row;
}

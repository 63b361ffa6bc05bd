// Who may see a message: the owner of its conversation (messages carry that user's id). Anything else
// is a 404, including a child id (message_id) that belongs to another conversation (DESIGN.md §6).
import type { PurchaseForExpiry } from '@pluma/common/rules/purchase-expiry';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations, messages, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { findOwnConversation, ownConversations, type ConversationRow } from '../conversations/policy';
import { candidatePurchasesOf, purchaseTermsColumns } from '../credits/access';
import { preparedPerDatabase } from './prepared';
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

export interface AnswerGate {
  conversation: ConversationRow;
  /** The owner's purchases with a valid status, for credits/access.ts (none read for staff). */
  purchases: PurchaseForExpiry[];
}

// Prepared (prepared.ts): it runs before every answer.
const answerGateQuery = preparedPerDatabase((db: Db) =>
  db
    .select({ conversation: conversations, purchase: purchaseTermsColumns })
    .from(conversations)
    .leftJoin(purchases, candidatePurchasesOf(conversations.userId))
    .where(and(ownConversations(sql.placeholder('userId')), eq(conversations.conversationId, sql.placeholder('conversationId'))))
    .prepare('answer_gate'),
);

/**
 * The actor's conversation (else 404) with what their access depends on, in one statement: each row is
 * the conversation joined to one candidate purchase, or one row without. Staff have access by their role.
 */
export async function requireConversationToAnswer(db: Db, actor: Actor, conversationId: number): Promise<AnswerGate> {
  const userId = actor.user.userId;
  if (actor.staffRole !== null) {
    const conversation = await findOwnConversation(db, userId, conversationId);
    if (!conversation) throw notFound();
    return { conversation, purchases: [] };
  }
  const rows = await answerGateQuery(db).execute({ userId, conversationId });
  if (rows.length === 0) throw notFound();
  return { conversation: rows[0].conversation, purchases: rows.flatMap((row) => (row.purchase ? [row.purchase] : [])) };
}

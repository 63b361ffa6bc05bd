// Who may see a message: the author of its conversation, in the context (Personal or organization) the
// conversation belongs to — messages carry both the user's and the organization's id (DESIGN.md §7).
// Anything else is a 404, including a child id (message_id) that belongs to another conversation (§6).
import { MESSAGE_ACTIONS, type MessageAction } from '@pluma/common/messages-api';
import type { PurchaseForExpiry } from '@pluma/common/rules/purchase-expiry';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations, messages, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { conversationPolicy, scopeParams, visibleToPrepared, type ConversationRow } from '../conversations';
import { candidatePurchasesOf, purchaseTermsColumns } from '../credits';
import { preparedPerDatabase } from '../../db/prepared';
import { ACTIVE_STATUSES } from './finalize';
import type { MessageRow } from './present';

/** The scope of every message query: the actor's messages in the context of this request. */
export function visibleMessages(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(messages.organizationId, actor.organization.organizationId) : isNull(messages.organizationId);
  return and(eq(messages.userId, actor.user.userId), context) as SQL;
}

export async function requireMessage(db: Db | Tx, actor: Pick<Actor, 'user' | 'organization'>, messageId: number, conversationId?: number): Promise<MessageRow> {
  const conditions = [visibleMessages(actor), eq(messages.messageId, messageId)];
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
    .where(and(visibleToPrepared(), eq(conversations.conversationId, sql.placeholder('conversationId'))))
    .prepare('answer_gate'),
);

/**
 * The actor's conversation (else 404) with what their access depends on, in one statement: each row is
 * the conversation joined to one candidate purchase, or one row without. Staff have access by their role.
 */
export async function requireConversationToAnswer(db: Db, actor: Actor, conversationId: number): Promise<AnswerGate> {
  if (actor.staffRole !== null) {
    const conversation = await conversationPolicy.find(db, actor, conversationId);
    if (!conversation) throw notFound();
    return { conversation, purchases: [] };
  }
  const rows = await answerGateQuery(db).execute({ ...scopeParams(actor), conversationId });
  if (rows.length === 0) throw notFound();
  return { conversation: rows[0].conversation, purchases: rows.flatMap((row) => (row.purchase ? [row.purchase] : [])) };
}

const isActive = (row: Pick<MessageRow, 'status'>) => (ACTIVE_STATUSES as readonly string[]).includes(row.status);

/**
 * What a message's state allows (the rules createMessage/answerAgain and updateMessage enforce): nothing
 * changes an answer being written but Favorite and Delete (which stops it); only answers are written again.
 */
export function stateAllows(action: MessageAction, row: Pick<MessageRow, 'role' | 'status' | 'content' | 'finishReason'>): boolean {
  const answer = row.role === 'assistant';
  switch (action) {
    case 'favorite':
    case 'delete':
      return true;
    case 'edit':
      return !isActive(row);
    case 'share':
      return !isActive(row) && !!row.content?.trim();
    case 'continue':
      return answer && ((row.finishReason === 'length' && row.status === 'done') || (row.status === 'interrupted' && !!row.content));
    case 'retry':
      return answer && (row.status === 'failed' || row.status === 'interrupted');
    case 'regenerate':
      return answer && row.status === 'done';
  }
}

/** The author's, in the message's own context (the only messages visibleMessages returns), as its state allows. */
export function can(actor: Pick<Actor, 'user' | 'organization'>, action: MessageAction, row: MessageRow): boolean {
  const context = actor.organization?.organizationId ?? null;
  return row.userId === actor.user.userId && row.organizationId === context && stateAllows(action, row);
}

/**
 * A message is only ever presented to its author (every query is scoped by visibleMessages, and stream
 * events go to the author's room), so its abilities are what its state allows.
 */
export const messageAbilities = (row: MessageRow) => Object.fromEntries(MESSAGE_ACTIONS.map((a) => [a, stateAllows(a, row)])) as Record<MessageAction, boolean>;

// Who may see a message: the author of its conversation, in the context (Personal or organization) the
// conversation belongs to — messages carry both the user's and the organization's id (DESIGN.md §7).
// Anything else is a 404, including a child id (message_id) that belongs to another conversation (§6).
import { MESSAGE_ACTIONS, STOPPED_FINISH_REASON, type MessageAction } from '@pluma/common/messages-api';
import type { PurchaseForExpiry } from '@pluma/common/rules/purchase-expiry';
import { and, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations, messages, purchases } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { definePolicy, isOwnInContext, ownInContext, type ContextActor } from '../../platform/policy/define-policy';
import { conversationColumns, conversationPolicy, scopeParams, visibleToPrepared, type ConversationRow } from '../conversations';
import { candidatePurchasesOf, purchaseTermsColumns } from '../credits';
import { preparedPerDatabase } from '../../db/prepared';
import { ACTIVE_STATUSES } from './finalize';
import type { MessageRow } from './present';

export async function requireMessage(db: Db | Tx, actor: ContextActor, messageId: number, conversationId?: number): Promise<MessageRow> {
  if (conversationId === undefined) return messagePolicy.require(db, actor, messageId);
  const [row] = await db
    .select()
    .from(messages)
    .where(and(messagePolicy.visibleTo(actor), eq(messages.messageId, messageId), eq(messages.conversationId, conversationId)))
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
    .select({ conversation: conversationColumns, purchase: purchaseTermsColumns })
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

/** Finish reasons of a finished answer that ended early with its text kept: cut off at the length limit, or stopped by the user. */
export const CONTINUABLE_FINISH_REASONS = ['length', STOPPED_FINISH_REASON] as const;

/**
 * An answer written on by Continue: one cut off at the length limit, one the user stopped (issue 30 item 1)
 * or one interrupted with some text. An answer stopped or interrupted before its first word has nothing to
 * continue from (it is written again instead).
 */
export function isContinuable(row: Pick<MessageRow, 'status' | 'content' | 'finishReason'>): boolean {
  if (row.status === 'done') return row.finishReason === 'length' || (row.finishReason === STOPPED_FINISH_REASON && !!row.content);
  return row.status === 'interrupted' && !!row.content;
}

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
      return answer && isContinuable(row);
    case 'retry':
      return answer && (row.status === 'failed' || row.status === 'interrupted');
    case 'regenerate':
      return answer && row.status === 'done';
  }
}

/**
 * The scope of every message query: the actor's messages in the context of this request. The actions are the
 * author's, in the message's own context (the only messages visibleTo returns), as its state allows.
 */
export const messagePolicy = definePolicy<MessageAction, MessageRow, ContextActor>({
  actions: MESSAGE_ACTIONS,
  table: messages,
  id: messages.messageId,
  visibleTo: ownInContext(messages),
  can: (actor, action, row) => isOwnInContext(actor, row) && stateAllows(action, row),
  refuseWith: 'notFound',
});

/**
 * A message is only ever presented to its author (every query is scoped by visibleTo, and stream events go to
 * the author's room), so its abilities are the policy's for its author.
 */
export const messageAbilities = (row: MessageRow) =>
  messagePolicy.abilities({ user: { userId: row.userId } as ContextActor['user'], organization: row.organizationId === null ? null : ({ organizationId: row.organizationId } as ContextActor['organization']) }, row);

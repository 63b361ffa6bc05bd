// Who may see and do what with a conversation (DESIGN.md §7). A conversation is private to its author in
// every context: in Personal, the user's own conversations without an organization; in an organization,
// the user's own conversations of that organization (spec part 2 §4: organization_id goes with the
// conversations made while it is active). Anything else is a 404 (DESIGN.md §3), never a 403, so ids of
// other users' conversations reveal nothing.
import { CONVERSATION_ACTIONS, type ConversationAction } from '@pluma/common/conversations';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { conversations } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type ConversationRow = typeof conversations.$inferSelect;

/** The scope of every conversation query: what the actor may see in the context of this request. */
export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(conversations.organizationId, actor.organization.organizationId) : isNull(conversations.organizationId);
  return and(eq(conversations.userId, actor.user.userId), context) as SQL;
}

/** visibleTo with placeholders `userId` and `organizationId` (null = Personal), for prepared queries. */
export function visibleToPrepared(): SQL {
  return and(
    eq(conversations.userId, sql.placeholder('userId')),
    sql`${conversations.organizationId} is not distinct from ${sql.placeholder('organizationId')}::int`,
  ) as SQL;
}

/** The placeholder values of visibleToPrepared(). */
export const scopeParams = (actor: Pick<Actor, 'user' | 'organization'>) => ({
  userId: actor.user.userId,
  organizationId: actor.organization?.organizationId ?? null,
});

/** The actions are the author's, on a conversation visible in this context (the only kind a query returns). */
export function can(actor: Actor, _action: ConversationAction, row: ConversationRow): boolean {
  const context = actor.organization?.organizationId ?? null;
  return row.userId === actor.user.userId && row.organizationId === context;
}

export const conversationAbilities = (actor: Actor, row: ConversationRow) => abilitiesOf(can, CONVERSATION_ACTIONS, actor, row);

export async function findVisibleConversation(db: Db | Tx, actor: Actor, conversationId: number): Promise<ConversationRow | null> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(visibleTo(actor), eq(conversations.conversationId, conversationId)))
    .limit(1);
  return row ?? null;
}

/** The conversation if the actor may take `action` on it, else a 404. */
export async function requireConversation(db: Db | Tx, actor: Actor, conversationId: number, action: ConversationAction = 'read'): Promise<ConversationRow> {
  const row = await findVisibleConversation(db, actor, conversationId);
  if (!row || !can(actor, action, row)) throw notFound();
  return row;
}

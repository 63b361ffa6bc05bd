// Who may see and do what with a conversation (DESIGN.md §7). A conversation is private to its author in
// every context: in Personal, the user's own conversations without an organization; in an organization,
// the user's own conversations of that organization (spec part 2 §4: organization_id goes with the
// conversations made while it is active). Anything else is a 404 (DESIGN.md §3), never a 403, so ids of
// other users' conversations reveal nothing.
import { CONVERSATION_ACTIONS, type ConversationAction } from '@pluma/common/conversations';
import { and, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import { conversations } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy, isOwnInContext, ownInContext, type ContextActor } from '../../platform/policy/define-policy';

/** A conversation as services read it: without the stored search keys (name_lower, tags_lower, tag_list). */
export type ConversationRow = Omit<typeof conversations.$inferSelect, 'nameLower' | 'tagsLower' | 'tagList'>;

/** The columns of a ConversationRow, for lists that select them (the search keys only filter). */
export const conversationColumns = (() => {
  const { nameLower: _name, tagsLower: _tags, tagList: _list, ...columns } = getTableColumns(conversations);
  return columns;
})();

export const conversationPolicy = definePolicy<ConversationAction, ConversationRow, ContextActor>({
  actions: CONVERSATION_ACTIONS,
  table: conversations,
  id: conversations.conversationId,
  columns: conversationColumns,
  /** The scope of every conversation query: what the actor may see in the context of this request. */
  visibleTo: ownInContext(conversations),
  /** The actions are the author's, on a conversation visible in this context (the only kind a query returns). */
  can: (actor, _action, row) => isOwnInContext(actor, row),
  refuseWith: 'notFound',
});

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

// Who may see and do what with a topics or hashtags generation (DESIGN.md §7): it is its author's, in the
// context it was made in (Personal, or the organization of the request). Anything else is a 404.
import { IDEA_ACTIONS, type IdeaAction } from '@pluma/common/ideas';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { ideaRequests } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { abilitiesOf } from '../../platform/policy/abilities';

export type IdeaRow = typeof ideaRequests.$inferSelect;

export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(ideaRequests.organizationId, actor.organization.organizationId) : isNull(ideaRequests.organizationId);
  return and(eq(ideaRequests.userId, actor.user.userId), context) as SQL;
}

export function can(actor: Actor, _action: IdeaAction, row: IdeaRow): boolean {
  return row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);
}

export const ideaAbilities = (actor: Actor, row: IdeaRow) => abilitiesOf(can, IDEA_ACTIONS, actor, row);

// Who may see and do what with a topics or hashtags generation (DESIGN.md §7): it is its author's, in the
// context it was made in (Personal, or the organization of the request). Anything else is a 404.
import { IDEA_ACTIONS, type IdeaAction } from '@pluma/common/ideas';
import { ideaRequests } from '../../db/schema';
import { definePolicy, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';

export type IdeaRow = typeof ideaRequests.$inferSelect;

export const ideaPolicy = definePolicy<IdeaAction, IdeaRow>({
  actions: IDEA_ACTIONS,
  table: ideaRequests,
  id: ideaRequests.ideaId,
  visibleTo: ownInContext(ideaRequests),
  can: (actor, _action, row) => isOwnInContext(actor, row),
});

// Who may do what with a tutorial (DESIGN.md §7; issue 15 item 5 "staff create, edit, order and delete
// them"). Tutorials belong to the product, not to a user or an organization: everyone with access lists
// and watches every tutorial; staff admins (requireStaff('admin') on the routes) change them.
import { TUTORIAL_ACTIONS, type TutorialAction } from '@pluma/common/tutorials';
import { sql } from 'drizzle-orm';
import { tutorials } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { definePolicy } from '../../platform/policy/define-policy';

export type TutorialRow = typeof tutorials.$inferSelect;

export const canManageTutorials = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

/** Every tutorial is visible to everyone the routes admit; staff admins change them. */
export const tutorialPolicy = definePolicy<TutorialAction, TutorialRow>({
  actions: TUTORIAL_ACTIONS,
  table: tutorials,
  id: tutorials.tutorialId,
  visibleTo: () => sql`true`,
  can: (actor) => canManageTutorials(actor),
});

// Who may do what with a tutorial (DESIGN.md §7; issue 15 item 5 "staff create, edit, order and delete
// them"). Tutorials belong to the product, not to a user or an organization: everyone with access lists
// and watches every tutorial; staff admins (requireStaff('admin') on the routes) change them.
import { TUTORIAL_ACTIONS, type TutorialAction } from '@pluma/common/tutorials';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { tutorials } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type TutorialRow = typeof tutorials.$inferSelect;

export const canManageTutorials = (actor: Pick<Actor, 'staffRole'>) => actor.staffRole === 'admin';

export function can(actor: Actor, _action: TutorialAction, _row: TutorialRow): boolean {
  return canManageTutorials(actor);
}

export const tutorialAbilities = (actor: Actor, row: TutorialRow) => abilitiesOf(can, TUTORIAL_ACTIONS, actor, row);

/** The tutorial, or a 404 (every tutorial is visible to everyone the routes admit). */
export async function requireTutorial(db: Db | Tx, tutorialId: number, lock = false): Promise<TutorialRow> {
  const query = db.select().from(tutorials).where(eq(tutorials.tutorialId, tutorialId)).limit(1);
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw notFound();
  return row;
}

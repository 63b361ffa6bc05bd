// Who may see and do what with a training (DESIGN.md §7; issue 13 item 4). A training runs on its author's
// own AI key and is billed to their account (spec part 1 §1), so it is private to its author in the
// context it was made in — staff admins included. Any other training is a 404 on every route.
import { ACTIVE_TRAINING_STATUSES, TRAINING_ACTIONS, type TrainingAction, type TrainingStatus } from '@pluma/common/trainings';
import { and, eq, isNull, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { trainings } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { notFound } from '../../platform/http/errors';
import { abilitiesOf } from '../../platform/policy/abilities';

export type TrainingRow = typeof trainings.$inferSelect;

/** The actor's own trainings in the context of this request: the scope of every read and write. */
export function visibleTo(actor: Pick<Actor, 'user' | 'organization'>): SQL {
  const context = actor.organization ? eq(trainings.organizationId, actor.organization.organizationId) : isNull(trainings.organizationId);
  return and(eq(trainings.userId, actor.user.userId), context) as SQL;
}

export const isActive = (status: string) => (ACTIVE_TRAINING_STATUSES as readonly string[]).includes(status);

export function can(actor: Actor, action: TrainingAction, row: TrainingRow): boolean {
  const own = row.userId === actor.user.userId && row.organizationId === (actor.organization?.organizationId ?? null);
  if (!own) return false;
  const status = row.status as TrainingStatus;
  switch (action) {
    case 'read':
    case 'update':
    case 'delete':
      return true;
    case 'execute':
      return status === 'draft' || status === 'failed' || status === 'cancelled';
    case 'sync':
      return row.providerJobId !== null;
    case 'refine':
    case 'select':
      return status === 'succeeded' && row.fineTunedModel !== null;
  }
}

export const trainingAbilities = (actor: Actor, row: TrainingRow) => abilitiesOf(can, TRAINING_ACTIONS, actor, row);

export async function requireTraining(db: Db | Tx, actor: Actor, trainingId: number): Promise<TrainingRow> {
  const [row] = await db
    .select()
    .from(trainings)
    .where(and(visibleTo(actor), eq(trainings.trainingId, trainingId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

// Who may see and do what with a training (DESIGN.md §7; issue 13 item 4). A training runs on its author's
// own AI key and is billed to their account (spec part 1 §1), so it is private to its author in the
// context it was made in — staff admins included. Any other training is a 404 on every route.
import { ACTIVE_TRAINING_STATUSES, TRAINING_ACTIONS, type TrainingAction, type TrainingStatus } from '@pluma/common/trainings';
import { trainings } from '../../db/schema';
import { definePolicy, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';

export type TrainingRow = typeof trainings.$inferSelect;

export const isActive = (status: string) => (ACTIVE_TRAINING_STATUSES as readonly string[]).includes(status);

export const trainingPolicy = definePolicy<TrainingAction, TrainingRow>({
  actions: TRAINING_ACTIONS,
  table: trainings,
  id: trainings.trainingId,
  /** The actor's own trainings in the context of this request: the scope of every read and write. */
  visibleTo: ownInContext(trainings),
  can(actor, action, row) {
    if (!isOwnInContext(actor, row)) return false;
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
  },
});

// Who may see and do what with an output (DESIGN.md §7; issue 13 item 5): an output is its author's, in the
// context it was made in (also one made with someone's public avatar). Anything else is a 404.
import { OUTPUT_ACTIONS, type OutputAction } from '@pluma/common/outputs';
import { outputs } from '../../db/schema';
import { definePolicy, isOwnInContext, ownInContext } from '../../platform/policy/define-policy';

export type OutputRow = typeof outputs.$inferSelect;

export const outputPolicy = definePolicy<OutputAction, OutputRow>({
  actions: OUTPUT_ACTIONS,
  table: outputs,
  id: outputs.outputId,
  visibleTo: ownInContext(outputs),
  can(actor, action, row) {
    if (!isOwnInContext(actor, row)) return false;
    // A pending output is being written: it can be read and deleted, not edited, rated or followed up yet.
    return row.status !== 'pending' || action === 'read' || action === 'delete';
  },
});

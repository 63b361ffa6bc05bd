// Who may see and do what with Super Fetch runs and outputs (DESIGN.md §7). Super Fetch is personal (spec
// part 2 §2 "Main navigation tabs": not in organization scope): a run and its outputs are their author's
// alone, in Personal; anyone else's is a 404. An output is rated once it has finished (a running one: 409),
// and stopped while it runs (issue 30 item 1).
import { SUPER_FETCH_OUTPUT_ACTIONS, type SuperFetchOutputAction } from '@pluma/common/super-fetch';
import { eq, sql, type SQL } from 'drizzle-orm';
import { superFetchOutputs, superFetchRuns } from '../../db/schema';
import type { Actor } from '../../platform/auth/actor';
import { AppError } from '../../platform/http/errors';
import { definePolicy } from '../../platform/policy/define-policy';
import { canRate, isActive, shownState, type OutputRow, type RunRow } from './output-state';

type Who = Pick<Actor, 'user' | 'organization'>;

/** Spec part 2 §2 "Main navigation tabs": Super Fetch is not in organization scope. */
export function assertPersonal(actor: Pick<Actor, 'organization'>): void {
  if (actor.organization) throw new AppError(404, 'not_found', 'super_fetch_not_in_organization');
}

/** Own rows, and only in Personal. */
const own = (actor: Who, userId: typeof superFetchRuns.userId | typeof superFetchOutputs.userId): SQL =>
  actor.organization ? sql`false` : (eq(userId, actor.user.userId) as SQL);

/** A run: its author's; it has no actions of its own (its outputs do). */
export const superFetchRunPolicy = definePolicy<never, RunRow, Who>({
  actions: [],
  table: superFetchRuns,
  id: superFetchRuns.runId,
  visibleTo: (actor) => own(actor, superFetchRuns.userId),
  can: () => false,
});

/** An output: its author's; rated once finished, stopped while it runs. */
export const superFetchOutputPolicy = definePolicy<SuperFetchOutputAction, OutputRow, Who>({
  actions: SUPER_FETCH_OUTPUT_ACTIONS,
  table: superFetchOutputs,
  id: superFetchOutputs.outputId,
  visibleTo: (actor) => own(actor, superFetchOutputs.userId),
  can: (_actor, action, row) => (action === 'rate' ? canRate(row) : isActive(shownState(row).status)),
});

/**
 * An output is only ever presented to its author (every read is scoped to them, and stream events go to their
 * room), so its abilities are the policy's for its author.
 */
export const outputAbilities = (row: OutputRow) =>
  superFetchOutputPolicy.abilities({ user: { userId: row.userId } as Who['user'], organization: null }, row);

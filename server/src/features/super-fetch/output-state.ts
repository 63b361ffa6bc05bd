// What a Super Fetch output's state is taken to be: the JSON shows it (present.ts) and rating follows it
// (service.ts), so it lives apart from the presenter.
import type { SuperFetchOutput } from '@pluma/common/super-fetch';
import type { superFetchOutputs, superFetchRuns } from '../../db/schema';

export type RunRow = typeof superFetchRuns.$inferSelect;
export type OutputRow = typeof superFetchOutputs.$inferSelect;

/**
 * An output still pending or streaming that has not been saved for this long was left by a process that
 * stopped without closing (a closing one fails its outputs as 'interrupted' itself): it is shown as that.
 * Longer than a generation may run (10 minutes) with its saves every 500 ms, and than a word hold lives.
 */
const ABANDONED_AFTER_MS = 16 * 60_000;

export const isActive = (status: string) => status === 'pending' || status === 'streaming';

/** The output's status and error code as shown: an abandoned one is failed ('interrupted'). */
export function shownState(row: OutputRow, now = Date.now()): { status: SuperFetchOutput['status']; errorCode: string | null } {
  const abandoned = isActive(row.status) && now - row.updatedAt.getTime() > ABANDONED_AFTER_MS;
  return { status: (abandoned ? 'failed' : row.status) as SuperFetchOutput['status'], errorCode: abandoned ? 'interrupted' : row.errorCode };
}

/** Only a finished output (done, or failed part-way) can be judged. */
export const canRate = (row: OutputRow, now = Date.now()) => !isActive(shownState(row, now).status);

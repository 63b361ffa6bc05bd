// The JSON of Super Fetch runs and outputs (spec part 2 §3 "Super Fetch prompt builder inputs", §7).
import { SUPER_FETCH_INPUTS, type SuperFetchInputKey, type SuperFetchOutput, type SuperFetchRun } from '@pluma/common/super-fetch';
import type { superFetchOutputs, superFetchRuns } from '../../db/schema';

export type RunRow = typeof superFetchRuns.$inferSelect;
export type OutputRow = typeof superFetchOutputs.$inferSelect;

/**
 * An output still pending or streaming that has not been saved for this long was left by a process that
 * stopped without closing (a closing one fails its outputs as 'interrupted' itself): it is shown as that.
 * Longer than a generation may run (10 minutes) with its saves every 500 ms, and than a word hold lives.
 */
const ABANDONED_AFTER_MS = 16 * 60_000;

const isActive = (status: string) => status === 'pending' || status === 'streaming';

export function presentOutput(row: OutputRow, now = Date.now()): SuperFetchOutput {
  const abandoned = isActive(row.status) && now - row.updatedAt.getTime() > ABANDONED_AFTER_MS;
  const status = (abandoned ? 'failed' : row.status) as SuperFetchOutput['status'];
  return {
    output_id: row.outputId,
    run_id: row.runId,
    position: row.position,
    content: row.content,
    status,
    liked: row.liked,
    error_code: abandoned ? 'interrupted' : row.errorCode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    // Only a finished output (done, or failed part-way) can be judged.
    abilities: { rate: !isActive(status) },
  };
}

export function presentRun(row: RunRow, outputs: OutputRow[]): SuperFetchRun {
  const inputs = Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, row.inputs[key] ?? ''])) as Record<SuperFetchInputKey, string>;
  return {
    run_id: row.runId,
    assistant_id: row.avatarId,
    inputs,
    feedback: row.feedbackInput === null ? null : { input: row.feedbackInput, liked: row.feedbackLiked, run_id: row.feedbackRunId },
    prompt: row.prompt,
    file: row.fileName === null ? null : { file_id: row.fileId, name: row.fileName, truncated: row.fileTruncated },
    requested: row.requested,
    outputs: outputs.filter((o) => o.runId === row.runId).sort((a, b) => a.position - b.position).map((o) => presentOutput(o)),
    createdAt: row.createdAt.toISOString(),
  };
}

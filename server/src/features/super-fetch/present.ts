// The JSON of Super Fetch runs and outputs (spec part 2 §3 "Super Fetch prompt builder inputs", §7).
import { SUPER_FETCH_INPUTS, type SuperFetchInputKey, type SuperFetchOutput, type SuperFetchRun } from '@pluma/common/super-fetch';
import { shownState, type OutputRow, type RunRow } from './output-state';
import { outputAbilities } from './policy';

export function presentOutput(row: OutputRow, now = Date.now()): SuperFetchOutput {
  const { status, errorCode } = shownState(row, now);
  return {
    output_id: row.outputId,
    run_id: row.runId,
    position: row.position,
    content: row.content,
    status,
    liked: row.liked,
    error_code: errorCode,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    abilities: outputAbilities(row),
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

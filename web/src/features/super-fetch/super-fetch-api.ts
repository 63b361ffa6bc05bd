// The Super Fetch calls (spec part 2 §7 "Super Fetch"; issue 14 item 4) and how a `super_fetch_outputs`
// frame changes the history held by the page.
import type { AvatarWithFiles } from '@pluma/common/avatars';
import type { FileResponse } from '@pluma/common/files';
import type { SuperFetchHistory, SuperFetchOutput, SuperFetchOutputsPayload, SuperFetchRequest, SuperFetchRun } from '@pluma/common/super-fetch';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const SUPER_FETCH_KEY = ['super-fetch'] as const;
export const superFetchAvatarKey = [...SUPER_FETCH_KEY, 'avatar'] as const;
export const historyKey = (assistantId: number, limit: number) => [...SUPER_FETCH_KEY, 'history', assistantId, limit] as const;
export const historyPrefix = (assistantId: number) => [...SUPER_FETCH_KEY, 'history', assistantId] as const;

/** The user's Super Fetch avatar (GET /avatars/super-fetch; made on first use from the admin's prompt). */
export function useSuperFetchAvatar(enabled: boolean) {
  return useQuery({ queryKey: superFetchAvatarKey, queryFn: () => api.get<AvatarWithFiles>('/avatars/super-fetch'), enabled });
}

export function useSuperFetchHistory(assistantId: number | undefined, limit: number) {
  return useQuery({
    queryKey: historyKey(assistantId ?? 0, limit),
    queryFn: () => api.get<SuperFetchHistory>(`/super_fetch/messages/${assistantId}`, { query: { limit } }),
    enabled: assistantId !== undefined,
  });
}

export const startSuperFetch = (body: SuperFetchRequest) => api.post<SuperFetchRun>('/super_fetch/v2', body);
export const rateSuperFetchOutput = (outputId: number, liked: boolean | null) => api.post<SuperFetchOutput>('/super_fetch/rate', { output_id: outputId, liked });
/** The user's Stop (issue 30 item 1): the run's outputs still running, or one of them; answers with the run. */
export const stopSuperFetch = (runId: number, outputId?: number) => api.post<SuperFetchRun>('/super_fetch/stop', { run_id: runId, output_id: outputId ?? null });
export const cleanSuperFetch = (assistantId: number) => api.delete<{ deleted: number }>(`/super_fetch/messages/${assistantId}`);

export function uploadSuperFetchFile(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<FileResponse>('/files', form);
}

/** An output still being written (a Stop can end it). */
export const isRunning = (output: Pick<SuperFetchOutput, 'status'>) => output.status === 'pending' || output.status === 'streaming';

/** The history with the run's running outputs (or one of them) shown stopped at once, their text kept (Stop). */
export function markStopped(history: SuperFetchHistory, runId: number, outputId?: number): SuperFetchHistory {
  return {
    ...history,
    runs: history.runs.map((run) =>
      run.run_id !== runId
        ? run
        : {
            ...run,
            outputs: run.outputs.map((o) =>
              isRunning(o) && (outputId === undefined || o.output_id === outputId) ? { ...o, status: 'stopped' as const, abilities: { ...o.abilities, stop: false } } : o,
            ),
          },
    ),
  };
}

/**
 * The history with the outputs a Stop's answer shows ended (their saved text and state). One still running
 * there (it runs on another node) keeps what the page shows: its end arrives as a frame.
 */
export function applyStopped(history: SuperFetchHistory, run: SuperFetchRun): SuperFetchHistory {
  const ended = new Map(run.outputs.filter((o) => !isRunning(o)).map((o) => [o.output_id, o]));
  return {
    ...history,
    runs: history.runs.map((r) => (r.run_id === run.run_id ? { ...r, outputs: r.outputs.map((o) => ended.get(o.output_id) ?? o) } : r)),
  };
}

const isDelta = (o: SuperFetchOutputsPayload['outputs'][number]): o is { output_id: number; position: number; delta: string } => 'delta' in o;

/** The history with one frame applied, or null when the frame's run is not in it (yet). */
export function applyFrame(history: SuperFetchHistory, frame: SuperFetchOutputsPayload): SuperFetchHistory | null {
  if (!history.runs.some((r) => r.run_id === frame.run_id)) return null;
  return {
    ...history,
    runs: history.runs.map((run) => {
      if (run.run_id !== frame.run_id) return run;
      return {
        ...run,
        outputs: run.outputs.map((output) => {
          const change = frame.outputs.find((o) => o.output_id === output.output_id);
          if (!change) return output;
          if (!isDelta(change)) return change;
          // A delta after the output ended (frames are not reordered, but be safe) changes nothing.
          if (!isRunning(output)) return output;
          return { ...output, status: 'streaming' as const, content: (output.content ?? '') + change.delta };
        }),
      };
    }),
  };
}

/** The history with a run's output replaced (after rating it). */
export function replaceOutput(history: SuperFetchHistory, output: SuperFetchOutput): SuperFetchHistory {
  return {
    ...history,
    runs: history.runs.map((run) => (run.run_id === output.run_id ? { ...run, outputs: run.outputs.map((o) => (o.output_id === output.output_id ? output : o)) } : run)),
  };
}

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
export const cleanSuperFetch = (assistantId: number) => api.delete<{ deleted: number }>(`/super_fetch/messages/${assistantId}`);

export function uploadSuperFetchFile(file: File) {
  const form = new FormData();
  form.append('file', file);
  return api.post<FileResponse>('/files', form);
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
          if (output.status === 'done' || output.status === 'failed') return output;
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

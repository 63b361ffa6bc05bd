// The trainings and outputs calls (spec part 2 §7 "Trainings", "Outputs"), in the active organization.
import type { Output, OutputList, OutputWithThread, ThreadPage } from '@pluma/common/outputs';
import type { Training, TrainingList } from '@pluma/common/trainings';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const TRAININGS_KEY = ['trainings'] as const;
export const trainingsKey = (avatarId: number) => [...TRAININGS_KEY, 'avatar', avatarId] as const;
export const OUTPUTS_KEY = ['outputs'] as const;
export const outputsKey = (avatarId: number) => [...OUTPUTS_KEY, 'avatar', avatarId] as const;

export function useTrainings(avatarId: number) {
  return useQuery({ queryKey: trainingsKey(avatarId), queryFn: () => api.get<TrainingList>('/trainings', { query: { avatar_id: avatarId } }) });
}
export const createTraining = (avatarId: number, name: string) => api.post<Training>('/trainings', { avatar_id: avatarId, name });
export const updateTraining = (body: { training_id: number; name?: string; selected?: boolean }) => api.put<Training>('/trainings', body);
export const trainingAction = (action: 'execute' | 'sync' | 'refine', trainingId: number) => api.post<Training>(`/trainings/${action}`, { training_id: trainingId });
export const deleteTraining = (trainingId: number) => api.delete<{ deleted: true }>(`/trainings/${trainingId}`);

export function useOutputs(avatarId: number) {
  return useQuery({ queryKey: outputsKey(avatarId), queryFn: () => api.get<OutputList>(`/outputs/avatar/${avatarId}`) });
}
export const generateOutputs = (avatarId: number, prompt: string) => api.post<{ outputs: Output[] }>('/outputs/generate', { assistant_id: avatarId, messages: [prompt] });
export const rateOutput = (outputId: number, liked: boolean | null) => api.post<Output>('/outputs/rate', { output_id: outputId, liked });
export const editOutput = (outputId: number, content: string) => api.put<Output>('/outputs', { output_id: outputId, content });
export const deleteOutput = (outputId: number) => api.delete<{ deleted: true }>(`/outputs/${outputId}`);

// An output's thread (GET /messages/thread/{id}[/{x}]): newest 10 first, then 10 before each next_cursor.
export const threadKey = (outputId: number) => [...OUTPUTS_KEY, 'thread', outputId] as const;
export function useThread(outputId: number) {
  return useInfiniteQuery({
    queryKey: threadKey(outputId),
    queryFn: ({ pageParam }) => api.get<ThreadPage>(pageParam === null ? `/messages/thread/${outputId}` : `/messages/thread/${outputId}/${pageParam}`),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
export const sendThreadMessage = (outputId: number, content: string) => api.post<OutputWithThread>('/outputs/message', { output_id: outputId, content });

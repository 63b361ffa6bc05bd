// GET /api/models: the chat models this server offers (spec part 2 §9), for model pickers and badges.
import type { ChatModel } from '@pluma/common/models';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export function useModels() {
  return useQuery({
    queryKey: ['models'],
    queryFn: ({ signal }) => api.get<ChatModel[]>('/models', { signal }),
    staleTime: 60_000,
  });
}

/** spec part 2 §4: the conversation model value 'Unset' is sent as null. */
export const UNSET_MODEL = 'Unset';

export const toModelValue = (selected: string | null): string | null => (selected === null || selected === UNSET_MODEL ? null : selected);

/** The model a conversation uses: its own, else the server's default. */
export function effectiveModel(model: string | null, models: readonly ChatModel[]): ChatModel | null {
  if (model) return models.find((m) => m.id === model) ?? null;
  return models.find((m) => m.isDefault) ?? null;
}

/** The badge text of a model id: its label when offered, else the id itself. */
export function modelLabel(model: string | null, models: readonly ChatModel[]): string | null {
  if (!model) return null;
  return models.find((m) => m.id === model)?.label ?? model;
}

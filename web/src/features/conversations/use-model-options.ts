// Options of a model picker: 'Unset' (the server's default model) then the models offered now; a model
// the conversation has but the server no longer offers stays listed so the picker never shows blank.
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSET_MODEL, useModels } from './models-api';

export interface ModelOption {
  value: string;
  label: string;
}

export function useModelOptions(current: string | null): ModelOption[] {
  const { t } = useTranslation('chat');
  const { data: models = [] } = useModels();
  return useMemo(() => {
    const fallback = models.find((m) => m.isDefault);
    const options: ModelOption[] = [
      { value: UNSET_MODEL, label: fallback ? t('model.unsetWithDefault', { label: fallback.label }) : t('model.unset') },
      ...models.map((m) => ({ value: m.id, label: m.label })),
    ];
    if (current && !models.some((m) => m.id === current)) options.push({ value: current, label: current });
    return options;
  }, [models, current, t]);
}

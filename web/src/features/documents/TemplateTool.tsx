// The tools panel's Templates section (spec part 2 §2 "Templates (apply a template into the document)"): a
// searchable picker over the templates API, then the picked template's fields through the template apply
// screen's own form (features/templates ApplyForm: the same inputs, checks and preview), and Generate — a
// generation of kind 'template' with the values; the server fills the prompt (a hidden prompt stays there).
// While it runs, Stop shows under the form.
import { Select, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { DEFAULT_TEMPLATE_SORT, type Template } from '@pluma/common/templates';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApplyForm, useTemplates } from '../templates';
import type { GenerateInput } from './generation-api';
import { StopGenerationButton, type StopControl } from './StopGenerationButton';

interface TemplateToolProps {
  busy: boolean;
  onGenerate: (input: GenerateInput) => Promise<boolean>;
  stop: StopControl;
}

export function TemplateTool({ busy, onGenerate, stop }: TemplateToolProps) {
  const { t } = useTranslation('documents');
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [picked, setPicked] = useState<Template | null>(null);
  // The search is the server's (name and description), not only the page loaded.
  const list = useTemplates({ query: picked && query === picked.name ? '' : query, page: 1, sortBy: DEFAULT_TEMPLATE_SORT, tag: null, type: null, favorites: false, admin: false, language: null });
  const templates = list.data?.templates ?? [];
  const options = picked && !templates.some((x) => x.template_id === picked.template_id) ? [picked, ...templates] : templates;

  return (
    <Stack gap="xs" data-testid="document-template-tool">
      <Title order={3} size="h5">
        {t('tools.templates')}
      </Title>
      <Select
        label={t('tools.template')}
        placeholder={t('tools.templatePlaceholder')}
        searchable
        clearable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={list.isFetching ? t('tools.searching') : t('tools.noTemplates')}
        data={options.map((x) => ({ value: String(x.template_id), label: x.name }))}
        value={picked ? String(picked.template_id) : null}
        onChange={(value) => setPicked(options.find((x) => String(x.template_id) === value) ?? null)}
        data-testid="document-template-select"
      />
      {picked && <ApplyForm key={picked.template_id} template={picked} busy={busy} onGenerate={(values) => void onGenerate({ kind: 'template', template_id: picked.template_id, values })} />}
      {busy && <StopGenerationButton onStop={stop.onStop} stopping={stop.stopping} testId="document-template-stop" />}
    </Stack>
  );
}

// /workflows/new and /workflows/{workflow_id}/edit (staff admins; issue 14 item 3 "Admins build workflows
// from templates"): name, description, tags and the templates in order, chosen among the public ones (a
// workflow's steps must be runnable by every user). The server checks the same and answers its messages.
import { ActionIcon, Button, Card, Group, Select, Stack, TagsInput, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { WORKFLOW_MAX_TAGS, WORKFLOW_MAX_TEMPLATES, type Workflow } from '@pluma/common/workflows';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { createWorkflow, updateWorkflow, usePublicTemplates, useWorkflow, WORKFLOWS_KEY } from './workflows-api';

interface Step {
  template_id: number;
  name: string;
}

export default function WorkflowEditorPage() {
  const { t } = useTranslation('workflows');
  const param = useParams().workflowId;
  const workflowId = param === undefined ? null : Number(param);
  const existing = useWorkflow(workflowId ?? 0, workflowId !== null);
  if (workflowId !== null && existing.isError) return <LoadErrorAlert text={t('detail.loadError')} onRetry={() => void existing.refetch()} retryLabel={t('retry')} />;
  if (workflowId !== null && !existing.data) return <PageLoader />;
  return <WorkflowEditor key={workflowId ?? 'new'} workflow={existing.data ?? null} />;
}

function WorkflowEditor({ workflow }: { workflow: Workflow | null }) {
  const { t } = useTranslation('workflows');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [name, setName] = useState(workflow?.name ?? '');
  const [description, setDescription] = useState(workflow?.description ?? '');
  const [tags, setTags] = useState<string[]>(workflow?.tags ?? []);
  const [steps, setSteps] = useState<Step[]>(workflow?.templates.map((s) => ({ template_id: s.template_id, name: s.name })) ?? []);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const templates = usePublicTemplates(debounced);
  const [tried, setTried] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const move = (index: number, by: -1 | 1) =>
    setSteps((list) => {
      const next = [...list];
      const [item] = next.splice(index, 1);
      next.splice(index + by, 0, item as Step);
      return next;
    });

  const save = async () => {
    setTried(true);
    setErrors({});
    if (!name.trim() || steps.length === 0) return;
    setSaving(true);
    const body = { name: name.trim(), description: description.trim(), tags, template_ids: steps.map((s) => s.template_id) };
    try {
      const saved = workflow ? await updateWorkflow({ workflow_id: workflow.workflow_id, ...body }) : await createWorkflow(body);
      void queryClient.invalidateQueries({ queryKey: WORKFLOWS_KEY });
      navigate(`/workflows/${saved.workflow_id}`);
    } catch (error) {
      if (isApiError(error) && error.status === 400) setErrors(error.details);
      handleError(error, { showValidation: true });
    } finally {
      setSaving(false);
    }
  };

  const options = (templates.data ?? []).filter((tpl) => !steps.some((s) => s.template_id === tpl.template_id)).map((tpl) => ({ value: String(tpl.template_id), label: tpl.name }));

  return (
    <Stack gap="md" maw={760} data-testid="workflow-editor">
      <PageHeader title={workflow ? t('editor.editTitle') : t('editor.newTitle')} description={t('editor.description')} />
      <TextInput
        label={t('editor.name')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
        error={tried && !name.trim() ? t('fieldError.template_input_empty') : errors.name}
        withAsterisk
        data-testid="workflow-name"
      />
      <Textarea label={t('editor.descriptionLabel')} value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={2} error={errors.description} />
      <TagsInput label={t('editor.tags')} value={tags} onChange={setTags} maxTags={WORKFLOW_MAX_TAGS} error={errors.tags} />
      <Card withBorder radius="md" padding="md">
        <Stack gap="sm">
          <Text fw={600}>{t('editor.templates')}</Text>
          {steps.length === 0 ? (
            <Text size="sm" c={tried ? 'red' : 'dimmed'} data-testid="no-steps">
              {tried ? t('editor.templatesRequired') : t('editor.noTemplates')}
            </Text>
          ) : (
            <Stack gap={6} data-testid="editor-steps">
              {steps.map((step, index) => (
                <Group key={step.template_id} justify="space-between" wrap="nowrap" data-testid="editor-step">
                  <Text size="sm">
                    {index + 1}. {step.name}
                  </Text>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" aria-label={t('editor.up')} disabled={index === 0} onClick={() => move(index, -1)}>
                      <IconArrowUp size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon variant="subtle" aria-label={t('editor.down')} disabled={index === steps.length - 1} onClick={() => move(index, 1)}>
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={t('editor.remove')} onClick={() => setSteps((list) => list.filter((_, i) => i !== index))}>
                      <IconX size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                </Group>
              ))}
            </Stack>
          )}
          {errors.template_ids && (
            <Text size="sm" c="red">
              {errors.template_ids}
            </Text>
          )}
          <Select
            label={t('editor.addTemplate')}
            placeholder={t('editor.searchTemplates')}
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={options}
            value={null}
            nothingFoundMessage={t('editor.noPublicTemplates')}
            disabled={steps.length >= WORKFLOW_MAX_TEMPLATES}
            onChange={(value) => {
              const picked = options.find((o) => o.value === value);
              if (picked) setSteps((list) => [...list, { template_id: Number(picked.value), name: picked.label }]);
              setSearch('');
            }}
            data-testid="add-template"
          />
        </Stack>
      </Card>
      <Group>
        <Button onClick={() => void save()} loading={saving} data-testid="save-workflow">
          {t('editor.save')}
        </Button>
        <Button variant="default" onClick={() => navigate(workflow ? `/workflows/${workflow.workflow_id}` : '/workflows')}>
          {t('editor.cancel')}
        </Button>
      </Group>
    </Stack>
  );
}

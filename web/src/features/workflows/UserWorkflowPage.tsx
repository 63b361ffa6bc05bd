// /user_workflows/{user_workflow_id} (spec part 2 §2 "detail with delete and field values"): the run's
// values (editable, all required; saved as the key=value string) and its steps in order, each with Run
// (sends the step's prompt in its conversation) and Open (its output chat). A later step is given the
// previous step's answer (docs/decisions.md "Workflows"), so it runs once that answer exists.
import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { encodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import type { UserWorkflow } from '@pluma/common/workflows';
import { IconMessages, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { FieldInputs, fieldProblems, type FieldValues } from './FieldInputs';
import { deleteUserWorkflow, updateUserWorkflow, USER_WORKFLOWS_KEY, userWorkflowKey, useUserWorkflow } from './workflows-api';

export const stepPath = (run: Pick<UserWorkflow, 'user_workflow_id'>, conversationId: number) => `/user_workflows/${run.user_workflow_id}/conversation/${conversationId}`;

export default function UserWorkflowPage() {
  const { t } = useTranslation('workflows');
  const id = Number(useParams().userWorkflowId);
  const run = useUserWorkflow(id);
  if (run.isError) return <LoadErrorAlert text={t('run.loadError')} onRetry={() => void run.refetch()} retryLabel={t('retry')} />;
  if (!run.data) return <PageLoader />;
  return <UserWorkflowView key={run.data.user_workflow_id} run={run.data} />;
}

function UserWorkflowView({ run }: { run: UserWorkflow }) {
  const { t } = useTranslation('workflows');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [values, setValues] = useState<FieldValues>(() => Object.fromEntries(run.fields.map((f) => [f.name, f.value])));
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const dirty = run.fields.some((f) => (values[f.name] ?? '') !== f.value);

  const save = async () => {
    setTried(true);
    setServerErrors({});
    if (Object.keys(fieldProblems(run.fields, values)).length > 0) return;
    setSaving(true);
    try {
      const picked = Object.fromEntries(run.fields.map((f) => [f.name, (values[f.name] ?? '').trim()]));
      const saved = await updateUserWorkflow({ user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues(picked) });
      queryClient.setQueryData(userWorkflowKey(run.user_workflow_id), saved);
      void queryClient.invalidateQueries({ queryKey: USER_WORKFLOWS_KEY });
      showSuccess(t('run.saved'));
    } catch (error) {
      if (isApiError(error) && error.status === 400) setServerErrors(error.details);
      handleError(error, { showValidation: true });
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteUserWorkflow(run.user_workflow_id);
      queryClient.removeQueries({ queryKey: userWorkflowKey(run.user_workflow_id) });
      void queryClient.invalidateQueries({ queryKey: USER_WORKFLOWS_KEY });
      navigate('/user_workflows');
    } catch (error) {
      handleError(error);
    } finally {
      setDeleting(false);
    }
  };

  const steps = run.user_workflow_templates;
  return (
    <Stack gap="md" data-testid="user-workflow-page">
      <PageHeader
        title={run.name}
        actions={
          run.abilities.delete && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirmDelete(true)} data-testid="delete-user-workflow">
              {t('run.delete')}
            </Button>
          )
        }
      />
      <Card withBorder radius="md" padding="md" data-testid="run-values">
        <Title order={2} fz="lg" mb="xs">
          {t('run.values')}
        </Title>
        {run.fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('run.noFields')}
          </Text>
        ) : (
          <Stack gap="sm">
            <FieldInputs fields={run.fields} values={values} onChange={setValues} showErrors={tried} serverErrors={serverErrors} disabled={saving} />
            <Group>
              <Button onClick={() => void save()} loading={saving} disabled={!dirty && run.complete} data-testid="save-values">
                {t('run.saveValues')}
              </Button>
            </Group>
          </Stack>
        )}
      </Card>
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz="lg" mb="xs">
          {t('detail.steps')}
        </Title>
        <Stack gap="xs" data-testid="run-steps">
          {steps.map((step, index) => {
            const previous = steps[index - 1];
            // From step 2 on, the previous step's finished answer is part of the prompt.
            const waiting = index > 0 && previous?.last_answer?.status !== 'done';
            const canRun = run.abilities.run && run.complete && !dirty && !waiting;
            return (
              <Group key={step.user_workflow_template_id} justify="space-between" wrap="wrap" data-testid="run-step">
                <Stack gap={0}>
                  <Text fw={500}>
                    {index + 1}. {step.template.name}
                  </Text>
                  <Group gap={6}>
                    <Badge size="xs" variant="light" color={step.last_answer?.status === 'done' ? 'green' : 'gray'}>
                      {step.last_answer ? t(`run.status.${step.last_answer.status}`, { defaultValue: step.last_answer.status }) : t('run.status.none')}
                    </Badge>
                    {waiting && (
                      <Text size="xs" c="dimmed">
                        {t('run.waitsFor', { step: index })}
                      </Text>
                    )}
                  </Group>
                </Stack>
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    leftSection={<IconPlayerPlay size={14} aria-hidden />}
                    disabled={!canRun}
                    onClick={() => navigate(`${stepPath(run, step.conversation_id)}?run=1`)}
                    data-testid="run-step-button"
                  >
                    {t('run.run')}
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="default"
                    component={Link}
                    to={stepPath(run, step.conversation_id)}
                    leftSection={<IconMessages size={14} aria-hidden />}
                    data-testid="open-step"
                  >
                    {t('run.open')}
                  </Button>
                </Group>
              </Group>
            );
          })}
        </Stack>
        {!run.complete && (
          <Text size="sm" c="dimmed" mt="xs" data-testid="values-needed">
            {t('run.valuesNeeded')}
          </Text>
        )}
      </Card>
      <ConfirmModal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t('run.deleteTitle')}
        warning={t('run.deleteWarning')}
        confirmLabel={t('run.delete')}
        onConfirm={() => void remove()}
        pending={deleting}
        data-testid="delete-user-workflow-modal"
      />
    </Stack>
  );
}

// /workflows/{workflow_id} (spec part 2 §2 "Workflow list and detail with Start (creates a user workflow,
// then saves field values)"): the workflow's steps and the Start form — a name for the run and every field
// (all required) — which creates the run, saves its values as the key=value string and opens it. Staff
// admins edit or delete the workflow from here.
import { Badge, Button, Card, Group, List, Stack, Text, TextInput, Title } from '@mantine/core';
import { encodeWorkflowValues } from '@pluma/common/rules/workflow-values';
import { IconPencil, IconPlayerPlay, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { FieldInputs, fieldProblems, type FieldValues } from './FieldInputs';
import { createUserWorkflow, deleteWorkflow, updateUserWorkflow, USER_WORKFLOWS_KEY, useWorkflow, WORKFLOWS_KEY } from './workflows-api';

export default function WorkflowPage() {
  const { t } = useTranslation('workflows');
  const workflowId = Number(useParams().workflowId);
  const workflow = useWorkflow(workflowId, Number.isInteger(workflowId));
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [name, setName] = useState('');
  const [values, setValues] = useState<FieldValues>({});
  const [tried, setTried] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [starting, setStarting] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState(false);

  if (workflow.isError) return <LoadErrorAlert text={t('detail.loadError')} onRetry={() => void workflow.refetch()} retryLabel={t('retry')} />;
  if (!workflow.data) return <PageLoader />;
  const wf = workflow.data;

  const start = async () => {
    setTried(true);
    setServerErrors({});
    if (!name.trim() || Object.keys(fieldProblems(wf.fields, values)).length > 0) return;
    setStarting(true);
    try {
      // spec part 2 §2: Start creates the user workflow, then saves its field values.
      const run = await createUserWorkflow({ workflow_id: wf.workflow_id, name: name.trim() });
      const picked = Object.fromEntries(wf.fields.map((f) => [f.name, (values[f.name] ?? '').trim()]));
      // The run exists now: if its values are refused, it opens anyway with the message, to be fixed there
      // (starting again would make a second run).
      await updateUserWorkflow({ user_workflow_id: run.user_workflow_id, values: encodeWorkflowValues(picked) }).catch((error: unknown) =>
        handleError(error, { showValidation: true }),
      );
      void queryClient.invalidateQueries({ queryKey: USER_WORKFLOWS_KEY });
      navigate(`/user_workflows/${run.user_workflow_id}`);
    } catch (error) {
      if (isApiError(error) && error.status === 400) setServerErrors(error.details);
      handleError(error, { showValidation: true });
    } finally {
      setStarting(false);
    }
  };

  const remove = async () => {
    setDeleting(true);
    try {
      await deleteWorkflow(wf.workflow_id);
      void queryClient.invalidateQueries({ queryKey: WORKFLOWS_KEY });
      navigate('/workflows');
    } catch (error) {
      handleError(error);
    } finally {
      setDeleting(false);
    }
  };

  return (
    <Stack gap="md" data-testid="workflow-page">
      <PageHeader
        title={wf.name}
        description={wf.description}
        actions={
          <>
            {wf.abilities.edit && (
              <Button component={Link} to={`/workflows/${wf.workflow_id}/edit`} variant="default" leftSection={<IconPencil size={16} aria-hidden />} data-testid="edit-workflow">
                {t('detail.edit')}
              </Button>
            )}
            {wf.abilities.delete && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setConfirmDelete(true)} data-testid="delete-workflow">
                {t('detail.delete')}
              </Button>
            )}
          </>
        }
      />
      {wf.tags.length > 0 && (
        <Group gap={4}>
          {wf.tags.map((tag) => (
            <Badge key={tag} variant="outline" size="sm">
              {tag}
            </Badge>
          ))}
        </Group>
      )}
      <Card withBorder radius="md" padding="md">
        <Title order={2} fz="lg" mb="xs">
          {t('detail.steps')}
        </Title>
        <List type="ordered" spacing="xs" data-testid="workflow-steps">
          {wf.templates.map((step) => (
            <List.Item key={step.position}>
              <Text fw={500} span>
                {step.name}
              </Text>
              {step.description && (
                <Text size="sm" c="dimmed">
                  {step.description}
                </Text>
              )}
            </List.Item>
          ))}
        </List>
      </Card>
      <Card withBorder radius="md" padding="md" data-testid="start-form">
        <Title order={2} fz="lg" mb="xs">
          {t('detail.startTitle')}
        </Title>
        {wf.abilities.start ? (
          <Stack gap="sm">
            <TextInput
              label={t('detail.runName')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              error={tried && !name.trim() ? t('fieldError.template_input_empty') : serverErrors.name}
              withAsterisk
              data-testid="run-name"
            />
            <FieldInputs fields={wf.fields} values={values} onChange={setValues} showErrors={tried} serverErrors={serverErrors} disabled={starting} />
            <Group>
              <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => void start()} loading={starting} data-testid="start-workflow">
                {t('detail.start')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed" data-testid="start-unavailable">
            {t('detail.startUnavailable')}
          </Text>
        )}
      </Card>
      <ConfirmModal
        opened={confirmDelete}
        onClose={() => setConfirmDelete(false)}
        title={t('detail.deleteTitle')}
        warning={t('detail.deleteWarning')}
        confirmLabel={t('detail.delete')}
        onConfirm={() => void remove()}
        pending={deleting}
        data-testid="delete-workflow-modal"
      />
    </Stack>
  );
}

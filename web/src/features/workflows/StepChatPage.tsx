// /user_workflows/{user_workflow_id}/conversation/{conversation_id} (spec part 2 §2 "an output chat"; §1
// "template output chat with Regenerate and Continue Generating"): one step's conversation through the
// chat's own hook and list (use-chat.ts, MessageList), so answers stream and are saved as on the conversation
// screen. Run sends the step's prompt (the server fills the template with the run's values, after the
// previous step's answer); Regenerate writes the last answer again; Continue Generating goes on with an answer
// cut off at the length limit. Opened with ?run=1 (the run's Run button), the step runs once on arrival.
import { Anchor, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { UserWorkflow } from '@pluma/common/workflows';
import { IconArrowLeft, IconPlayerPlay, IconPlayerStop, IconPlayerTrackNext, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { ChatMessageList, useChat } from '../chat';
import { stepPath } from './UserWorkflowPage';
import { USER_WORKFLOWS_KEY, useUserWorkflow } from './workflows-api';

export default function StepChatPage() {
  const { t } = useTranslation('workflows');
  const params = useParams();
  const id = Number(params.userWorkflowId);
  const conversationId = Number(params.conversationId);
  const run = useUserWorkflow(id);
  if (run.isError) return <LoadErrorAlert text={t('run.loadError')} onRetry={() => void run.refetch()} retryLabel={t('retry')} />;
  if (!run.data) return <PageLoader />;
  const index = run.data.user_workflow_templates.findIndex((s) => s.conversation_id === conversationId);
  if (index < 0) return <LoadErrorAlert text={t('step.notAStep')} data-testid="not-a-step" />;
  return <StepChat key={conversationId} run={run.data} index={index} />;
}

function StepChat({ run, index }: { run: UserWorkflow; index: number }) {
  const { t } = useTranslation('workflows');
  const step = run.user_workflow_templates[index] as UserWorkflow['user_workflow_templates'][number];
  const next = run.user_workflow_templates[index + 1];
  const chat = useChat(step.conversation_id);
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [preparing, setPreparing] = useState(false);
  const [searchParams, setSearchParams] = useSearchParams();
  const autoRun = useRef(searchParams.get('run') === '1');
  const { state, send, answerAgain, generating, stop, stopping } = chat;
  const busy = generating || preparing;

  const runStep = useCallback(async () => {
    setPreparing(true);
    try {
      // The server fills the step's prompt (a template's hidden prompt never reaches the browser).
      await send('', { user_workflow_id: run.user_workflow_id });
    } catch (error) {
      handleError(error, { showValidation: true });
    } finally {
      setPreparing(false);
    }
  }, [run.user_workflow_id, send, handleError]);

  // ?run=1: run once when the history is loaded, then drop the flag so a reload does not run it again.
  useEffect(() => {
    if (!autoRun.current || !state.loaded) return;
    autoRun.current = false;
    setSearchParams({}, { replace: true });
    void runStep();
  }, [state.loaded, runStep, setSearchParams]);

  // When an answer ends, the run's step states (and the next step's Run) change.
  const wasGenerating = useRef(generating);
  useEffect(() => {
    if (wasGenerating.current && !generating) void queryClient.invalidateQueries({ queryKey: USER_WORKFLOWS_KEY });
    wasGenerating.current = generating;
  }, [generating, queryClient]);

  const lastAnswer = [...state.messages].reverse().find((m) => m.role === 'assistant');
  const canRegenerate = !!lastAnswer && (lastAnswer.abilities.regenerate || lastAnswer.abilities.retry);
  const canContinue = !!lastAnswer && lastAnswer.abilities.continue;

  return (
    <Stack gap="md" data-testid="step-chat-page">
      <PageHeader
        title={t('step.title', { step: index + 1, name: step.template.name })}
        description={run.name}
        actions={
          <Button component={Link} to={`/user_workflows/${run.user_workflow_id}`} variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
            {t('step.back')}
          </Button>
        }
      />
      <Group gap="xs">
        <Button leftSection={<IconPlayerPlay size={16} aria-hidden />} onClick={() => void runStep()} disabled={busy || !run.complete} loading={preparing} data-testid="step-run">
          {state.messages.length > 0 ? t('step.runAgain') : t('step.run')}
        </Button>
        {generating && (
          // Stop (issue 30 item 1): the answer ends with its text so far, charged for what it wrote.
          <Button color="dark" leftSection={<IconPlayerStop size={16} aria-hidden />} onClick={stop} loading={stopping} data-testid="step-stop">
            {t('step.stop')}
          </Button>
        )}
        <Button
          variant="light"
          leftSection={<IconRefresh size={16} aria-hidden />}
          onClick={() => lastAnswer && void answerAgain(lastAnswer, 'regenerate')}
          disabled={busy || !canRegenerate}
          data-testid="step-regenerate"
        >
          {t('step.regenerate')}
        </Button>
        <Button
          variant="light"
          leftSection={<IconPlayerTrackNext size={16} aria-hidden />}
          onClick={() => lastAnswer && void answerAgain(lastAnswer, 'continue')}
          disabled={busy || !canContinue}
          data-testid="step-continue"
        >
          {t('step.continue')}
        </Button>
        {next && (
          <Anchor component={Link} to={stepPath(run, next.conversation_id)} size="sm" data-testid="next-step">
            {t('step.next', { step: index + 2, name: next.template.name })}
          </Anchor>
        )}
      </Group>
      {!run.complete && (
        <Text size="sm" c="dimmed">
          {t('run.valuesNeeded')}
        </Text>
      )}
      <Card withBorder radius="md" padding="sm" data-testid="step-chat">
        {chat.loadError && !state.loaded ? (
          <LoadErrorAlert text={t('step.loadError')} onRetry={chat.retryLoad} retryLabel={t('retry')} />
        ) : !state.loaded ? (
          <PageLoader />
        ) : state.messages.length === 0 ? (
          <Text size="sm" c="dimmed" py="lg" ta="center" data-testid="step-chat-empty">
            {t('step.empty')}
          </Text>
        ) : (
          <ChatMessageList chat={chat} busy={busy} />
        )}
      </Card>
    </Stack>
  );
}

// What can be done with an answer that did not finish or is no longer wanted (spec part 2 §2, §4), each
// offered exactly when the answer's abilities allow it (the server's rules, DESIGN.md §7):
// - Continue (`continue`): an answer cut off at the length limit, or interrupted with some text, is
//   written on from where it stopped;
// - Retry (`retry`): a failed or interrupted answer is written again in its own row (one answer, not two);
// - Regenerate (`regenerate`, the last answer): a new answer to its prompt;
// - Rewrite (the last finished answer): the next prompt reworks it (learnFromPrevResponse);
// - a prompt just edited: an offer to regenerate its answer from the new text.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconPencilBolt, IconPlayerTrackNext, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import type { ChatMessage } from './chat-state';
import type { AnswerAgainMode } from './use-chat';

export type OnAnswerAgain = (message: ChatMessage, mode?: AnswerAgainMode) => void;

export function UnfinishedAnswer({ message, busy, onAnswerAgain }: { message: ChatMessage; busy: boolean; onAnswerAgain: OnAnswerAgain }) {
  const { t } = useTranslation('chat');
  const failed = message.status === 'failed';
  return (
    <Alert color={failed ? 'red' : 'yellow'} variant="light" icon={<IconAlertTriangle size={16} aria-hidden />} p="xs" data-testid="message-failed">
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm">{failed ? (message.errorText ?? t('message.failed')) : t('message.interrupted')}</Text>
        <Group gap="xs" wrap="wrap">
          {message.abilities.continue && <ContinueButton message={message} busy={busy} onAnswerAgain={onAnswerAgain} />}
          {message.abilities.retry && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={() => onAnswerAgain(message, 'regenerate')}
              disabled={busy}
              data-testid="retry-button"
            >
              {t('message.retry')}
            </Button>
          )}
        </Group>
      </Group>
    </Alert>
  );
}

export function ContinueButton({ message, busy, onAnswerAgain }: { message: ChatMessage; busy: boolean; onAnswerAgain: OnAnswerAgain }) {
  const { t } = useTranslation('chat');
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconPlayerTrackNext size={14} aria-hidden />}
      onClick={() => onAnswerAgain(message, 'continue')}
      disabled={busy}
      data-testid="continue-button"
    >
      {t('message.continue')}
    </Button>
  );
}

export function RegenerateButton({ message, busy, onAnswerAgain }: { message: ChatMessage; busy: boolean; onAnswerAgain: OnAnswerAgain }) {
  const { t } = useTranslation('chat');
  return (
    <TooltipIconButton tooltip={t('message.regenerate')} onClick={() => onAnswerAgain(message, 'regenerate')} disabled={busy} data-testid="regenerate-button">
      <IconRefresh size={16} aria-hidden />
    </TooltipIconButton>
  );
}

/**
 * Rewrite last answer (issue 32 item 2): the prompt box then sends its next prompt with learnFromPrevResponse,
 * so the model reworks this answer as asked ("make it shorter", "more formal"…).
 */
export function ReworkButton({ busy, onRework }: { busy: boolean; onRework: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <TooltipIconButton tooltip={t('rework.action')} onClick={onRework} disabled={busy} data-testid="rework-button">
      <IconPencilBolt size={16} aria-hidden />
    </TooltipIconButton>
  );
}

/** Shown under a prompt once its edit is saved, until used or dismissed. */
export function RegenerateOffer({ busy, onRegenerate, onDismiss }: { busy: boolean; onRegenerate: () => void; onDismiss: () => void }) {
  const { t } = useTranslation('chat');
  return (
    <Alert variant="light" color="violet" p="xs" maw={560} data-testid="regenerate-offer">
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm">{t('message.regenerateOffer')}</Text>
        <Group gap="xs" wrap="nowrap">
          <Button size="compact-sm" variant="default" onClick={onDismiss}>
            {t('message.keepAnswer')}
          </Button>
          <Button size="compact-sm" leftSection={<IconRefresh size={14} aria-hidden />} onClick={onRegenerate} disabled={busy}>
            {t('message.regenerateAnswer')}
          </Button>
        </Group>
      </Group>
    </Alert>
  );
}

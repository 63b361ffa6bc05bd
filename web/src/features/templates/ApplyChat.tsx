// The chat side of the apply screen (spec part 2 §2 "Form view then chat view after Generate"): the
// conversation's messages through the chat's own hook and list (use-chat.ts, MessageList), so answers
// stream, continue and regenerate as on the conversation screen. A template and values handed over by
// Generate are sent once (the server fills the prompt) (with the avatar on /templates/apply-avatar); the screen hears whether an answer is being written.
import { Anchor, Button, Card, EmptyState, Group, Text } from '@mantine/core';
import { IconMessages, IconPlayerStop } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageLoader } from '../../ui/PageLoader';
import classes from './Templates.module.css';
import { ChatMessageList, useChat } from '../chat';

export interface QueuedPrompt {
  /** The template and its values: the server fills the prompt (a hidden one never reaches the browser). */
  templateId: number;
  values: Record<string, string>;
  /** Each Generate is a new number: the same prompt generated twice is sent twice. */
  seq: number;
}

interface ApplyChatProps {
  conversationId: number;
  queued: QueuedPrompt | null;
  avatarId: number | null;
  onBusyChange: (busy: boolean) => void;
}

export function ApplyChat({ conversationId, queued, avatarId, onBusyChange }: ApplyChatProps) {
  const { t } = useTranslation('templates');
  const chat = useChat(conversationId);
  const sentSeq = useRef(0);
  const { send } = chat;
  useEffect(() => {
    if (!queued || queued.seq === sentSeq.current) return;
    sentSeq.current = queued.seq;
    void send('', { template_id: queued.templateId, values: queued.values, ...(avatarId !== null ? { avatar_id: avatarId } : {}) });
  }, [queued, send, avatarId]);
  useEffect(() => onBusyChange(chat.generating), [chat.generating, onBusyChange]);
  const { state } = chat;

  return (
    <Card withBorder radius="md" padding="sm" className={classes.chat} data-testid="apply-chat">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('apply.chatTitle')}</Text>
        {chat.generating && (
          // Stop (issue 30 item 1): the answer ends with its text so far, charged for what it wrote.
          <Button size="xs" color="dark" leftSection={<IconPlayerStop size={14} aria-hidden />} onClick={chat.stop} loading={chat.stopping} data-testid="apply-stop">
            {t('apply.stop')}
          </Button>
        )}
        <Anchor component={Link} to={`/conversations/${conversationId}`} size="sm" data-testid="apply-open-chat">
          {t('apply.openChat')}
        </Anchor>
      </Group>
      {chat.loadError && !state.loaded ? (
        <EmptyState icon={<IconMessages size={28} aria-hidden />} withIndicatorBackground title={t('apply.chatLoadFailed')} py="xl">
          <EmptyState.Actions>
            <Button variant="default" onClick={chat.retryLoad}>
              {t('retry')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      ) : !state.loaded ? (
        <PageLoader />
      ) : state.messages.length === 0 ? (
        <Text size="sm" c="dimmed" py="lg" ta="center" data-testid="apply-chat-empty">
          {t('apply.chatEmpty')}
        </Text>
      ) : (
        <ChatMessageList chat={chat} />
      )}
    </Card>
  );
}

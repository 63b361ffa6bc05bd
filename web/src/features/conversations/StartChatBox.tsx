// Starting a chat by just typing (home and conversation list): the conversation is created with a name
// taken from the prompt (conversation-name.ts; editable later), then its screen opens and sends the prompt
// (chat/first-prompt.ts). The prompt rules are the chat's (spec part 2 §5: not empty, within 7500 tokens).
import { ActionIcon, Text, Textarea, Tooltip } from '@mantine/core';
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import { MESSAGE_CONTENT_MAX_CHARS } from '@pluma/common/constants';
import { IconSend } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useActiveOrganization } from '../../api/organization';
import { useErrorHandler } from '../../ui/use-error-handler';
import { canSend, isOverTokenLimit, queueFirstPrompt } from '../chat';
import { nameFromPrompt } from './conversation-name';
import classes from './Conversations.module.css';
import { useCreateConversation } from './conversations-api';
import { formatNumber } from '../../i18n/format';

export function StartChatBox() {
  const { t, i18n } = useTranslation('chat');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const organization = useActiveOrganization();
  const create = useCreateConversation();
  const [text, setText] = useState('');
  const sendable = canSend({ text, generating: create.isPending, enhancing: false });

  const start = () => {
    if (!sendable) return;
    const prompt = text;
    create.mutate(
      { name: nameFromPrompt(prompt), organization_id: organization?.organization_id ?? null },
      {
        onSuccess: (conversation) => {
          if (!conversation) return;
          queueFirstPrompt(conversation.conversation_id, prompt);
          void navigate(`/conversations/${conversation.conversation_id}`);
        },
        onError: (error) => handleError(error, { showValidation: true }),
      },
    );
  };

  return (
    <div className={classes.startBox} data-testid="start-chat">
      <Textarea
        label={t('start.label')}
        placeholder={t('start.placeholder')}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            start();
          }
        }}
        readOnly={create.isPending}
        autosize
        minRows={2}
        maxRows={8}
        maxLength={MESSAGE_CONTENT_MAX_CHARS}
        rightSectionWidth={48}
        rightSection={
          <Tooltip label={t('start.send')} withArrow>
            <ActionIcon size="lg" radius="xl" aria-label={t('start.send')} onClick={start} disabled={!sendable} loading={create.isPending} data-testid="start-chat-send">
              <IconSend size={18} aria-hidden />
            </ActionIcon>
          </Tooltip>
        }
        data-testid="start-chat-input"
      />
      {isOverTokenLimit(text) && (
        <Text size="xs" c="red.7" mt={4} role="alert">
          {t('prompt.overLimit', { max: formatNumber(MAX_CONVERSATION_TOKENS, i18n.language) })}
        </Text>
      )}
    </div>
  );
}

// Conversation file upload (spec part 2 §2, §7 POST /conversations/file/{id}): one click on the paperclip
// opens the file picker, and the chosen file is uploaded at once (spec part 2 §5: a file must be chosen
// to upload, which the picker guarantees). The picker offers only the types the model can use. With
// Claude, the file advice (beta, permitted files, the PDF page limit) shows inline beside the prompt
// until the user hides it for good: the spec's stored flag, kept in localStorage.
import { Alert, List, Text } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import { IconInfoCircle, IconPaperclip } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeStorage } from '../../api/storage-keys';
import { showSuccess } from '../../ui/alerts';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useUploadConversationFile } from '../conversations/conversations-api';
import { acceptedFileTypes, CLAUDE_PDF_PAGE_LIMIT } from './file-rules';

/** localStorage flag: the user asked not to see the file advice again. */
export const HIDE_FILE_ADVICE_KEY = 'hideFileAdvice';

function adviceHidden(): boolean {
  try {
    return safeStorage()?.getItem(HIDE_FILE_ADVICE_KEY) === 'true';
  } catch {
    return false;
  }
}

function rememberAdviceHidden() {
  try {
    safeStorage()?.setItem(HIDE_FILE_ADVICE_KEY, 'true');
  } catch {
    // Not remembered: the advice shows again next time, nothing worse.
  }
}

interface FileAttachProps {
  conversation: Conversation;
  claude: boolean;
  disabled?: boolean;
}

export function FileAttach({ conversation, claude, disabled }: FileAttachProps) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const upload = useUploadConversationFile();
  const input = useRef<HTMLInputElement>(null);
  const choose = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(
      { id: conversation.conversation_id, file },
      {
        onSuccess: () => showSuccess(t('files.attached')),
        onError: (error) => handleError(error, { showValidation: true }),
      },
    );
  };
  return (
    <>
      <TooltipIconButton
        tooltip={t('files.attach')}
        size="lg"
        onClick={() => input.current?.click()}
        disabled={disabled}
        loading={upload.isPending}
        data-testid="attach-file"
      >
        <IconPaperclip size={20} aria-hidden />
      </TooltipIconButton>
      <input
        ref={input}
        type="file"
        hidden
        accept={acceptedFileTypes(claude)}
        aria-label={t('files.file')}
        data-testid="file-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          // Cleared, so choosing the same file again uploads it again.
          event.currentTarget.value = '';
          choose(file);
        }}
      />
    </>
  );
}

/** Claude's file notes, inline under the prompt until hidden for good. */
export function ClaudeFileAdvice() {
  const { t } = useTranslation('chat');
  const [hidden, setHidden] = useState(adviceHidden);
  if (hidden) return null;
  return (
    <Alert
      variant="light"
      color="blue"
      icon={<IconInfoCircle size={18} aria-hidden />}
      p="xs"
      mt={6}
      withCloseButton
      closeButtonLabel={t('files.dontShowAgain')}
      onClose={() => {
        rememberAdviceHidden();
        setHidden(true);
      }}
      role="note"
      data-testid="claude-file-notes"
    >
      <Text size="sm" fw={600}>
        {t('files.claudeBeta')}
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>{t('files.adviceClaudeTypes')}</List.Item>
        <List.Item>{t('files.adviceClaudePages', { pages: CLAUDE_PDF_PAGE_LIMIT })}</List.Item>
      </List>
    </Alert>
  );
}

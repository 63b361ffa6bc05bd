// Conversation file upload (spec part 2 §2, §7 POST /conversations/file/{id}): a click on the paperclip
// opens the file picker, and the chosen file is uploaded at once (spec part 2 §5: a file must be chosen
// to upload, which the picker guarantees). The picker offers only the types the model can use. With
// Claude, the click first opens the file-advice modal (spec part 2 §2: "A file-advice modal (Claude PDF page
// limit and permitted files) can be hidden permanently via a stored flag"): the permitted files and the
// 100-page limit, a "Don't show this again" box kept in localStorage, and Continue to the picker. The short
// beta note stays inline under the prompt.
import { Checkbox, List, Text } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import type { MessageFile } from '@pluma/common/messages-api';
import { IconPaperclip } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeStorage } from '../../api/storage-keys';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useUploadConversationFile } from '../conversations';
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
  /** The stored file, to be sent with the next prompt (issue 27 item 2: the composer's chips). */
  onAttached?: (file: MessageFile) => void;
}

export function FileAttach({ conversation, claude, disabled, onAttached }: FileAttachProps) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const upload = useUploadConversationFile();
  const input = useRef<HTMLInputElement>(null);
  const [advising, setAdvising] = useState(false);
  const choose = (file: File | undefined) => {
    if (!file) return;
    upload.mutate(
      { id: conversation.conversation_id, file },
      {
        onSuccess: (updated) => {
          showSuccess(t('files.attached'));
          if (updated && updated.file) onAttached?.({ file_id: updated.file.file_id, name: updated.file.name, type: updated.file.type, size: file.size });
        },
        onError: (error) => handleError(error, { showValidation: true }),
      },
    );
  };
  // Read at each click: hidden in another tab counts here too.
  const attach = () => (claude && !adviceHidden() ? setAdvising(true) : input.current?.click());
  return (
    <>
      <TooltipIconButton tooltip={t('files.attach')} size="lg" onClick={attach} disabled={disabled} loading={upload.isPending} data-testid="attach-file">
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
      {advising && (
        <ClaudeFileAdviceModal
          onClose={() => setAdvising(false)}
          onContinue={() => {
            setAdvising(false);
            // Still within the click on Continue, so the browser lets the picker open.
            input.current?.click();
          }}
        />
      )}
    </>
  );
}

/**
 * Claude's file advice before the picker: the permitted files and the PDF page limit. The "Don't show this
 * again" box is stored when the modal closes, by Continue or by Cancel (the user's choice either way).
 */
function ClaudeFileAdviceModal({ onClose, onContinue }: { onClose: () => void; onContinue: () => void }) {
  const { t } = useTranslation('chat');
  const [dontShow, setDontShow] = useState(false);
  const closing = (then: () => void) => () => {
    if (dontShow) rememberAdviceHidden();
    then();
  };
  return (
    <Modal opened onClose={closing(onClose)} onConfirm={closing(onContinue)} confirmLabel={t('files.adviceContinue')} title={t('files.adviceTitle')} data-testid="claude-file-advice">
      <Text size="sm">{t('files.adviceIntro')}</Text>
      <List size="sm" spacing={4}>
        <List.Item>{t('files.adviceClaudeTypes')}</List.Item>
        <List.Item>{t('files.adviceClaudePages', { pages: CLAUDE_PDF_PAGE_LIMIT })}</List.Item>
      </List>
      <Checkbox label={t('files.dontShowAgain')} checked={dontShow} onChange={(event) => setDontShow(event.currentTarget.checked)} data-testid="file-advice-hide" />
    </Modal>
  );
}

/** The short beta note under the prompt while a Claude model is chosen (the details are in the modal). */
export function ClaudeBetaNote() {
  const { t } = useTranslation('chat');
  return (
    <Text size="xs" c="var(--pluma-muted)" mt={4} role="note" data-testid="claude-file-notes">
      {t('files.claudeBeta')}
    </Text>
  );
}

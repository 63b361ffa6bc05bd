// Conversation file upload (spec part 2 §2, §7 POST /conversations/file/{id}): a file-advice modal first
// (permitted files, Claude's PDF page limit) unless hidden for good, then the upload, enabled once a
// file is chosen. Claude shows its beta note and the PDF page limit.
import { Alert, Button, Checkbox, FileInput, Group, List, Stack, Text } from '@mantine/core';
import type { Conversation } from '@pluma/common/conversations';
import { IconFileUpload, IconInfoCircle, IconPaperclip } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { safeStorage } from '../../api/storage-keys';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
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

function hideAdvice() {
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
  const [step, setStep] = useState<'closed' | 'advice' | 'upload'>('closed');
  return (
    <>
      <TooltipIconButton
        tooltip={t('files.attach')}
        size="lg"
        onClick={() => setStep(adviceHidden() ? 'upload' : 'advice')}
        disabled={disabled}
        data-testid="attach-file"
      >
        <IconPaperclip size={20} aria-hidden />
      </TooltipIconButton>
      <FileAdviceModal opened={step === 'advice'} claude={claude} onClose={() => setStep('closed')} onContinue={() => setStep('upload')} />
      <Modal opened={step === 'upload'} onClose={() => setStep('closed')} title={t('files.uploadTitle')} data-testid="file-upload-modal">
        {step === 'upload' && <UploadForm conversation={conversation} claude={claude} onDone={() => setStep('closed')} />}
      </Modal>
    </>
  );
}

function FileAdviceModal({ opened, claude, onClose, onContinue }: { opened: boolean; claude: boolean; onClose: () => void; onContinue: () => void }) {
  const { t } = useTranslation('chat');
  const [dontShow, setDontShow] = useState(false);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('files.adviceTitle')}
      onConfirm={() => {
        if (dontShow) hideAdvice();
        onContinue();
      }}
      confirmLabel={t('files.chooseFile')}
      cancelLabel={t('actions.cancel')}
      data-testid="file-advice-modal"
    >
      <Stack gap="sm">
        <Text size="sm">{t('files.adviceIntro')}</Text>
        <List size="sm" spacing={4}>
          <List.Item>{t('files.adviceTypes')}</List.Item>
          <List.Item>{t('files.adviceClaudeTypes')}</List.Item>
          <List.Item>{t('files.adviceClaudePages', { pages: CLAUDE_PDF_PAGE_LIMIT })}</List.Item>
        </List>
        {claude && <ClaudeNotes />}
        <Checkbox label={t('files.dontShowAgain')} checked={dontShow} onChange={(event) => setDontShow(event.currentTarget.checked)} />
      </Stack>
    </Modal>
  );
}

function ClaudeNotes() {
  const { t } = useTranslation('chat');
  return (
    <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} aria-hidden />} p="xs" data-testid="claude-file-notes">
      <Text size="sm">{t('files.claudeBeta')}</Text>
      <Text size="sm">{t('files.adviceClaudePages', { pages: CLAUDE_PDF_PAGE_LIMIT })}</Text>
    </Alert>
  );
}

function UploadForm({ conversation, claude, onDone }: { conversation: Conversation; claude: boolean; onDone: () => void }) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const upload = useUploadConversationFile();
  const [file, setFile] = useState<File | null>(null);
  return (
    <Stack gap="md">
      {claude && <ClaudeNotes />}
      <FileInput
        label={t('files.file')}
        placeholder={t('files.filePlaceholder')}
        accept={acceptedFileTypes(claude)}
        value={file}
        onChange={setFile}
        clearable
        leftSection={<IconFileUpload size={16} aria-hidden />}
        data-testid="file-input"
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onDone} disabled={upload.isPending}>
          {t('actions.cancel')}
        </Button>
        <Button
          // spec part 2 §5: a file must be chosen to enable the upload.
          disabled={!file}
          loading={upload.isPending}
          onClick={() =>
            file &&
            upload.mutate(
              { id: conversation.conversation_id, file },
              {
                onSuccess: () => {
                  showSuccess(t('files.attached'));
                  onDone();
                },
                onError: (error) => handleError(error, { showValidation: true }),
              },
            )
          }
        >
          {t('files.upload')}
        </Button>
      </Group>
    </Stack>
  );
}

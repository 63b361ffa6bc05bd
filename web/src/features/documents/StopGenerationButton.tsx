// Stop (issue 30 item 1): while a generation is written into the document, each tool's Generate becomes Stop
// (Esc too: use-document-generation.ts). The text written so far stays in the document.
import { Button } from '@mantine/core';
import { IconPlayerStopFilled } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** What a tool needs to offer Stop while a generation runs (use-document-generation.ts stop/stopping). */
export interface StopControl {
  onStop: () => void;
  stopping: boolean;
}

interface StopGenerationButtonProps {
  onStop: () => void;
  stopping?: boolean;
  testId: string;
}

export function StopGenerationButton({ onStop, stopping = false, testId }: StopGenerationButtonProps) {
  const { t } = useTranslation('documents');
  return (
    <Button
      color="red"
      variant="light"
      leftSection={<IconPlayerStopFilled size={16} aria-hidden />}
      onClick={onStop}
      loading={stopping}
      aria-keyshortcuts="Escape"
      title={t('generation.stopHint')}
      data-testid={testId}
    >
      {t('generation.stop')}
    </Button>
  );
}

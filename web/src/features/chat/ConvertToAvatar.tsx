// Convert to Avatar (spec part 2 §2 "Conversations"): a message with a personality block (personality-block.ts)
// offers to make an avatar whose context is the block (the form: ConvertToAvatarForm.tsx, loaded when opened).
import { Button } from '@mantine/core';
import { IconUserPlus } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { personalityBlock } from './personality-block';

const ConvertForm = lazy(() => import('./ConvertToAvatarForm').then((m) => ({ default: m.ConvertForm })));

/** The button, shown only for a message that holds a personality block. */
export function ConvertToAvatarButton({ content }: { content: string }) {
  const { t } = useTranslation('chat');
  const [opened, setOpened] = useState(false);
  const block = personalityBlock(content);
  if (!block) return null;
  return (
    <>
      <Button size="compact-xs" variant="light" leftSection={<IconUserPlus size={14} aria-hidden />} onClick={() => setOpened(true)} data-testid="convert-to-avatar">
        {t('convert.button')}
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={t('convert.title')} size="lg" data-testid="convert-to-avatar-modal">
        {opened && (
          <Suspense fallback={null}>
            <ConvertForm context={block} onClose={() => setOpened(false)} />
          </Suspense>
        )}
      </Modal>
    </>
  );
}

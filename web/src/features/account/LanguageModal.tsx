// Language picker (spec part 1 §2 Profile): English or Español, saved to the profile.
import { Button, Stack } from '@mantine/core';
import type { Lang } from '@pluma/common/constants';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';

interface LanguageModalProps {
  opened: boolean;
  current: Lang;
  saving: boolean;
  onChoose: (lang: Lang) => void;
  onClose: () => void;
}

const OPTIONS: { value: Lang; label: string }[] = [
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Español' },
];

export function LanguageModal({ opened, current, saving, onChoose, onClose }: LanguageModalProps) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={t('language.choose')} size="sm" data-testid="language-modal">
      <Stack gap="sm">
        {OPTIONS.map((option) => (
          <Button
            key={option.value}
            variant={option.value === current ? 'light' : 'default'}
            size="md"
            justify="space-between"
            rightSection={option.value === current ? <IconCheck size={18} aria-hidden /> : null}
            onClick={() => onChoose(option.value)}
            loading={saving && option.value !== current}
            lang={option.value}
            aria-pressed={option.value === current}
            fullWidth
          >
            {option.label}
          </Button>
        ))}
      </Stack>
    </Modal>
  );
}

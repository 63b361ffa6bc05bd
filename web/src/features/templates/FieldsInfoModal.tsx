// The info modal on [field] placeholders (spec part 2 §2 "info modal explaining [field] placeholders"): the
// three kinds the parser reads (common/rules/template-fields.ts) with an example each.
import { Code, List, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';

export function FieldsInfoModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation('templates');
  return (
    <Modal opened={opened} onClose={onClose} title={t('info.title')} size="lg" data-testid="fields-info-modal">
      <Stack gap="sm">
        <Text size="sm">{t('info.intro')}</Text>
        <List spacing="xs" size="sm">
          <List.Item>
            <Code>{t('info.textExample')}</Code> — {t('info.text')}
          </List.Item>
          <List.Item>
            <Code>{t('info.numberExample')}</Code> — {t('info.number')}
          </List.Item>
          <List.Item>
            <Code>{t('info.selectExample')}</Code> — {t('info.select')}
          </List.Item>
        </List>
        <Text size="sm">{t('info.rules')}</Text>
        <Text size="sm" c="dimmed">
          {t('info.example')}
        </Text>
      </Stack>
    </Modal>
  );
}

// The user's words balance in the sidebar ('Unlimited' for 1000000, spec part 1 §3).
import { Group, Paper, Text } from '@mantine/core';
import { IconLetterCase } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber, isUnlimitedWords } from '../../platform/words';

export function WordsBalance({ words }: { words: number }) {
  const { t, i18n } = useTranslation();
  const value = isUnlimitedWords(words) ? t('shell.unlimited') : formatNumber(Math.max(0, words), i18n.language);
  return (
    <Paper withBorder radius="md" px="sm" py={8} data-testid="words-balance">
      <Group gap="xs" wrap="nowrap">
        <IconLetterCase size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" c="var(--pluma-muted)">
          {t('shell.words')}
        </Text>
        <Text size="sm" fw={700} ml="auto">
          {value}
        </Text>
      </Group>
    </Paper>
  );
}

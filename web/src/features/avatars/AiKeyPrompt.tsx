// The prompt shown where the user's own AI key is missing (spec part 1 §1: avatars need it): what is
// missing and a link to Settings, where the key is added.
import { Alert, Anchor, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function AiKeyPrompt() {
  const { t } = useTranslation('avatars');
  return (
    <Alert color="yellow" variant="light" icon={<IconKey size={18} aria-hidden />} data-testid="ai-key-prompt" maw={500}>
      <Text size="sm">
        {t('key.required')}{' '}
        <Anchor component={Link} to="/settings" size="sm">
          {t('key.addInSettings')}
        </Anchor>
      </Text>
    </Alert>
  );
}

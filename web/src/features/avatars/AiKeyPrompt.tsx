// The prompt shown where the user's own AI key is missing (spec part 1 §1: avatars need it; §2 Settings' note
// that a valid AI-provider API key is needed for avatars): what is missing and a link to Settings, where the
// key is added. Announced when it appears and brought into view (issue 30 item 3: in the creation modal it sits
// next to the button that was pressed, and a screen reader hears it).
import { Alert, Anchor, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function AiKeyPrompt() {
  const { t } = useTranslation('avatars');
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.scrollIntoView?.({ block: 'nearest' });
  }, []);
  return (
    <Alert ref={ref} color="yellow" variant="light" icon={<IconKey size={18} aria-hidden />} title={t('key.title')} role="alert" data-testid="ai-key-prompt">
      <Text size="sm">
        {t('key.required')}{' '}
        <Anchor component={Link} to="/settings" size="sm" fw={600}>
          {t('key.addInSettings')}
        </Anchor>
      </Text>
    </Alert>
  );
}

// The app cannot start: configuration or current user could not be loaded (server unreachable).
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconCloudOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { FirstPaintDone } from '../prerender/remove-first-paint';

export function StartupError({ onRetry, onSignOut }: { onRetry: () => void; onSignOut?: () => void }) {
  const { t } = useTranslation();
  return (
    <Center mih="100dvh" p="md" component="main" data-testid="startup-error">
      <Stack align="center" gap="sm" ta="center" maw={420} role="alert">
        <IconCloudOff size={44} aria-hidden />
        <Title order={1} fz={24}>
          {t('startup.title')}
        </Title>
        <Text c="var(--pluma-muted)">{t('startup.body')}</Text>
        <Button onClick={onRetry} mt="sm">
          {t('common.retry')}
        </Button>
        {onSignOut && (
          <Button variant="subtle" onClick={onSignOut}>
            {t('shell.logout')}
          </Button>
        )}
      </Stack>
      <FirstPaintDone />
    </Center>
  );
}

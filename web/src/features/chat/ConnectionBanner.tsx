// Shown on the conversation screen while the real-time channel is down (spec part 2 §7): answers keep
// being written and saved on the server, and the screen reads them again once the channel is back
// (use-chat.ts). A polite status, not an alert: nothing the user did failed.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { reconnectSocket, useSocketStatus } from '../../api/socket';

export function ConnectionBanner() {
  const { t } = useTranslation('chat');
  const status = useSocketStatus();
  if (status !== 'reconnecting' && status !== 'offline') return null;
  const offline = status === 'offline';
  return (
    <Alert role="status" aria-live="polite" color="yellow" variant="light" p="xs" icon={<IconPlugConnectedX size={18} aria-hidden />} data-testid="connection-banner" data-state={status}>
      <Group gap="sm" justify="space-between" wrap="wrap">
        <Text size="sm">{offline ? t('connection.offline') : t('connection.lost')}</Text>
        {offline && (
          <Button size="compact-sm" variant="light" color="yellow" onClick={reconnectSocket}>
            {t('connection.reconnect')}
          </Button>
        )}
      </Group>
    </Alert>
  );
}

// The "Viewing as {name}" bar of a session a staff admin opened with "log in as the user" (GET /users says
// `impersonated_by`): always on screen, in the shell's banner slot (above the page, taking its own room:
// never over the header or the sidebar), with the way back — end this session, leave the tab's view-as
// storage and close the tab (or, when the browser keeps it open, show the customer's page as the admin).
import { Button, Group, Paper, Text } from '@mantine/core';
import { IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { endViewAsTab } from '../../api/storage-keys';
import { useSession } from '../../platform/session/session-context';

export default function ViewingAsBar() {
  const { t } = useTranslation('admin-users');
  const session = useSession();
  const [leaving, setLeaving] = useState(false);
  if (session.status !== 'signedIn' || !session.user.impersonated_by) return null;
  const { user } = session;
  const name = `${user.name} ${user.last_name}`.trim();

  const stop = async () => {
    setLeaving(true);
    try {
      await session.signOut();
    } finally {
      endViewAsTab();
      window.close();
      // Still here (a tab the browser will not close): back to the customer's page, as the admin.
      window.location.assign(`/admin/users/${user.user_id}`);
    }
  };

  return (
    <Paper
      role="status"
      shadow="md"
      radius={0}
      px="md"
      py={6}
      bg="yellow.3"
      c="dark.9"
      data-testid="viewing-as-bar"
    >
      <Group justify="center" gap="md" wrap="wrap">
        <Text size="sm" fw={600}>
          {t('viewingAs.text', { name, email: user.email })}
        </Text>
        <Text size="xs">{t('viewingAs.by', { admin: session.user.impersonated_by.email })}</Text>
        <Button size="compact-sm" color="dark" leftSection={<IconEyeOff size={14} aria-hidden />} loading={leaving} onClick={() => void stop()} data-testid="viewing-as-stop">
          {t('viewingAs.stop')}
        </Button>
      </Group>
    </Paper>
  );
}

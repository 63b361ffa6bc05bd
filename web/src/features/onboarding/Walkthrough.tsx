// The walkthrough of the first conversation (spec part 2 §2 "Landing and walkthrough": "shows the first
// conversation with limited controls; if none exists and the user lacks access: 'Creating more content
// with {app} requires an active subscription.'"). Limited controls: its latest messages to read and a link
// to continue it; with no conversation yet, the start-a-chat box (or the subscription notice without access).
import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { OnboardingStatus } from '@pluma/common/onboarding';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { StartChatBox } from '../conversations';
import { useWalkthroughMessages } from './onboarding-api';

export function Walkthrough({ conversation, hasAccess }: { conversation: OnboardingStatus['first_conversation']; hasAccess: boolean }) {
  const { t } = useTranslation('onboarding');
  const app = useAppConfig().get('app_name');
  return (
    <Card withBorder radius="lg" padding="lg" data-testid="walkthrough">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {conversation ? conversation.name : t('walkthrough.title')}
        </Title>
        {conversation ? (
          <FirstConversation conversationId={conversation.conversation_id} />
        ) : hasAccess ? (
          <>
            <Text size="sm">{t('walkthrough.start')}</Text>
            <StartChatBox />
          </>
        ) : (
          <Alert color="yellow" data-testid="walkthrough-no-access">
            <Group justify="space-between" gap="sm">
              <Text size="sm">{t('walkthrough.noAccess', { app })}</Text>
              <Anchor component={Link} to="/upgrade" fw={600}>
                {t('walkthrough.upgrade')}
              </Anchor>
            </Group>
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

function FirstConversation({ conversationId }: { conversationId: number }) {
  const { t } = useTranslation('onboarding');
  const app = useAppConfig().get('app_name');
  const messages = useWalkthroughMessages(conversationId);
  if (messages.isPending) return <Loader size="sm" aria-label={t('walkthrough.title')} />;
  if (messages.isError) return <LoadErrorAlert text={t('walkthrough.loadError')} />;
  // Oldest first, as the conversation screen reads.
  const rows = [...messages.data.messages].sort((a, b) => a.message_id - b.message_id);
  return (
    <Stack gap="sm">
      {rows.length === 0 ? (
        <Text size="sm" c="var(--pluma-muted)">
          {t('walkthrough.empty')}
        </Text>
      ) : (
        <Stack gap="xs" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={t('walkthrough.title')}>
          {rows.map((message) => (
            <li key={message.message_id} data-testid="walkthrough-message" data-role={message.role}>
              <Text size="xs" fw={600} c="var(--pluma-muted)">
                {message.role === 'user' ? t('walkthrough.you') : t('walkthrough.assistant', { app })}
              </Text>
              <Text size="sm" lineClamp={4} style={{ whiteSpace: 'pre-wrap' }}>
                {message.content ?? t('walkthrough.pending')}
              </Text>
            </li>
          ))}
        </Stack>
      )}
      <Button component={Link} to={`/conversations/${conversationId}`} variant="light" style={{ alignSelf: 'flex-start' }} data-testid="walkthrough-open">
        {t('walkthrough.open')}
      </Button>
    </Stack>
  );
}

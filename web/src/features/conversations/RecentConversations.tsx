// spec part 2 §2: a recent-conversations preview of 5 while search is available.
import { Anchor, Group, Paper, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Conversations.module.css';
import { useRecentConversations } from './conversations-api';

export function RecentConversations() {
  const { t } = useTranslation('chat');
  const recent = useRecentConversations(true);
  const conversations = recent.data?.conversations ?? [];
  if (conversations.length === 0) return null;
  return (
    <Paper withBorder radius="lg" px="md" py="sm" component="section" aria-labelledby="recent-conversations-title" data-testid="recent-conversations">
      <Group gap="sm" wrap="nowrap" className={classes.recent}>
        <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
          <IconClock size={16} aria-hidden />
          <Text id="recent-conversations-title" size="sm" fw={600}>
            {t('list.recent')}
          </Text>
        </Group>
        {conversations.map((conversation) => (
          <Anchor key={conversation.conversation_id} component={Link} to={`/conversations/${conversation.conversation_id}`} size="sm" truncate className={classes.recentLink}>
            {conversation.name}
          </Anchor>
        ))}
      </Group>
    </Paper>
  );
}

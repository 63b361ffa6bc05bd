// The conversation list beside the open chat on wide screens (spec part 2 §9: wide layout from 1200px,
// Mantine's lg breakpoint). Not rendered on narrower screens, so phones neither show nor fetch it.
import { Anchor, Group, NavLink, Paper, ScrollArea, Skeleton, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMessagePlus } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import classes from './Conversations.module.css';
import { CONVERSATIONS_KEY, fetchConversations } from './conversations-api';

/** spec part 2 §9: the wide layout breakpoint (Mantine's lg is 75em = 1200px). */
export const WIDE_LAYOUT_QUERY = '(min-width: 75em)';
/** How many recent conversations the side list shows; the full list is one click away. */
export const SIDEBAR_SIZE = 30;

export function ConversationSidebar({ activeId }: { activeId: number }) {
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY);
  return wide ? <SidebarList activeId={activeId} /> : null;
}

function SidebarList({ activeId }: { activeId: number }) {
  const { t } = useTranslation('chat');
  const list = useQuery({
    queryKey: [...CONVERSATIONS_KEY, 'sidebar'],
    queryFn: ({ signal }) => fetchConversations({ query: '', sortBy: 'updatedAt_desc', archived: false, tag: null }, null, SIDEBAR_SIZE, signal),
  });
  const conversations = list.data?.conversations ?? [];
  return (
    <Paper component="nav" withBorder radius="lg" className={classes.sidebar} aria-labelledby="conversation-sidebar-title" data-testid="conversation-sidebar">
      <Group justify="space-between" wrap="nowrap" px="sm" pt="sm" pb={6}>
        <Text id="conversation-sidebar-title" size="sm" fw={600}>
          {t('sidebar.title')}
        </Text>
        <Anchor component={Link} to="/conversations" size="sm">
          <Group gap={4} wrap="nowrap">
            <IconMessagePlus size={16} aria-hidden />
            {t('sidebar.newChat')}
          </Group>
        </Anchor>
      </Group>
      <ScrollArea className={classes.sidebarScroll} type="auto" px={6} pb={6}>
        {list.isPending ? (
          <Stack gap={6} p={6} aria-busy>
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={28} radius="sm" />
            ))}
          </Stack>
        ) : (
          conversations.map((conversation) => (
            <NavLink
              key={conversation.conversation_id}
              component={Link}
              to={`/conversations/${conversation.conversation_id}`}
              label={conversation.name}
              active={conversation.conversation_id === activeId}
              aria-current={conversation.conversation_id === activeId ? 'page' : undefined}
              variant="light"
              classNames={{ label: classes.sidebarLabel }}
            />
          ))
        )}
        {!list.isPending && conversations.length >= SIDEBAR_SIZE && (
          <Anchor component={Link} to="/conversations" size="sm" px="sm" py={6} display="block">
            {t('sidebar.all')}
          </Anchor>
        )}
      </ScrollArea>
    </Paper>
  );
}

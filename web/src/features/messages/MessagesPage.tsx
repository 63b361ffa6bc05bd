// /messages (spec part 2 §7 "GET /messages?filters"; the route is ours, docs/decisions.md): the user's
// messages across conversations — favorites by default, or all — with a debounced search, "Load more"
// paging, and each item linking to its conversation.
import { Anchor, Badge, Button, Card, EmptyState, Group, SegmentedControl, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { MESSAGE_SEARCH_MAX_CHARS } from '@pluma/common/constants';
import type { BrowsedMessage } from '@pluma/common/messages-api';
import { IconMessageCircle, IconSearch, IconSparkles, IconStarFilled, IconUser } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';
import { useBrowsedMessages, type BrowseFilters } from './messages-api';
import { MessageCitations } from '../chat';
import { formatDateTime } from '../../i18n/format';

export default function MessagesPage() {
  const { t } = useTranslation('messages');
  const [params, setParams] = useSearchParams();
  // Favorites unless the URL says all (so Back returns to the same view).
  const favoritesOnly = params.get('show') !== 'all';
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const filters: BrowseFilters = useMemo(() => ({ favoritesOnly, query }), [favoritesOnly, query]);
  const list = useBrowsedMessages(filters);
  const items = useMemo(() => list.data?.pages.flatMap((page) => page.messages) ?? [], [list.data]);

  return (
    <Stack gap="lg" data-testid="messages-page">
      <PageHeader title={t('browse.title')} description={t('browse.description')} />
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4}>
          <Text size="sm" fw={500} id="messages-show-label">
            {t('browse.show')}
          </Text>
          <SegmentedControl
            aria-labelledby="messages-show-label"
            value={favoritesOnly ? 'favorites' : 'all'}
            onChange={(value) => setParams(value === 'all' ? { show: 'all' } : {}, { replace: true })}
            data={[
              { value: 'favorites', label: t('browse.favorites') },
              { value: 'all', label: t('browse.all') },
            ]}
            data-testid="messages-filter"
          />
        </Stack>
        <TextInput
          type="search"
          label={t('browse.search')}
          placeholder={t('browse.searchPlaceholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          maxLength={MESSAGE_SEARCH_MAX_CHARS}
          onChange={(event) => setSearch(event.currentTarget.value)}
          style={{ flex: '1 1 260px', maxWidth: 420 }}
          data-testid="messages-search"
        />
      </Group>
      {list.isPending ? (
        <ItemSkeletons />
      ) : list.isError && items.length === 0 ? (
        <EmptyState icon={<IconMessageCircle size={28} aria-hidden />} withIndicatorBackground title={t('browse.loadFailed')} description={t('browse.loadFailedBody')}>
          <EmptyState.Actions>
            <Button variant="default" onClick={() => void list.refetch()}>
              {t('browse.retry')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      ) : items.length === 0 ? (
        <Card withBorder radius="lg" padding="xl">
          <EmptyState
            icon={<IconMessageCircle size={28} aria-hidden />}
            withIndicatorBackground
            title={query ? t('browse.noMatches', { query }) : favoritesOnly ? t('browse.emptyFavorites') : t('browse.emptyAll')}
            description={query ? undefined : favoritesOnly ? t('browse.emptyFavoritesBody') : t('browse.emptyAllBody')}
            data-testid="messages-empty"
          />
        </Card>
      ) : (
        <Stack gap="md">
          <Stack component="ul" gap="sm" aria-label={t('browse.list')} aria-busy={list.isFetching} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {items.map((item) => (
              <MessageSummary key={item.message_id} item={item} />
            ))}
          </Stack>
          {list.hasNextPage && (
            <Group justify="center">
              <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} data-testid="messages-load-more">
                {t('browse.loadMore')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
    </Stack>
  );
}

function MessageSummary({ item }: { item: BrowsedMessage }) {
  const { t, i18n } = useTranslation('messages');
  const date = formatDateTime(item.createdAt, i18n.language);
  const fromUser = item.role === 'user';
  return (
    <Card component="li" withBorder radius="md" padding="md" data-testid="browsed-message" data-message-id={item.message_id}>
      <Stack gap="xs">
        <Group gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
            <Badge variant="light" color={fromUser ? 'gray' : 'violet'} leftSection={fromUser ? <IconUser size={12} aria-hidden /> : <IconSparkles size={12} aria-hidden />}>
              {fromUser ? t('browse.fromYou') : t('browse.fromAssistant')}
            </Badge>
            {item.favorite && <IconStarFilled size={14} color="var(--mantine-color-yellow-6)" aria-label={t('browse.favorite')} role="img" />}
            <Anchor component={Link} to={`/conversations/${item.conversation_id}`} size="sm" fw={600} truncate aria-label={t('browse.inConversation', { name: item.conversation_name })}>
              {item.conversation_name}
            </Anchor>
          </Group>
          <Text size="xs" c="var(--pluma-muted)" style={{ flexShrink: 0 }}>
            <time dateTime={item.createdAt}>{date}</time>
          </Text>
        </Group>
        {item.snippet === null ? (
          <Text size="sm" fs="italic" c="var(--pluma-muted)">
            {t('browse.pending')}
          </Text>
        ) : (
          <Text size="sm" lineClamp={4} style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {item.snippet}
          </Text>
        )}
        {/* An avatar answer's sources, as under it in the conversation (the passage opens on click). */}
        <MessageCitations citations={item.citations} />
      </Stack>
    </Card>
  );
}

function ItemSkeletons() {
  return (
    <Stack gap="sm" aria-hidden data-testid="messages-loading">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={92} radius="md" />
      ))}
    </Stack>
  );
}

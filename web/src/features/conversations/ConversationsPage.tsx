// The conversation list at / and /conversations, and one tag's conversations at /conversation/tags/{tag}
// (spec part 2 §2 "Conversations"): search, sort, All/Tags view, archived toggle, a recent preview,
// cards with their actions, a new-conversation button and "Load more" paging.
import { Button, Card, EmptyState, Group, Select, SimpleGrid, Skeleton, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { Conversation } from '@pluma/common/conversations';
import { IconMessagePlus, IconMessages, IconSearch } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import { showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { ConversationCard } from './ConversationCard';
import { ConversationFormModal } from './ConversationFormModal';
import classes from './Conversations.module.css';
import { useConversationList, useUpdateConversation, type ConversationFilters } from './conversations-api';
import { DeleteConversationModal } from './DeleteConversationModal';
import { parseArchived, parseSort, SORT_OPTIONS } from './list-params';
import { formatNumber } from '../../i18n/format';
import { modelLabel, useModels } from './models-api';
import { RecentConversations } from './RecentConversations';
import { StartChatBox } from './StartChatBox';
import { ViewSwitch } from './ViewSwitch';

export default function ConversationsPage() {
  const { t } = useTranslation('chat');
  const navigate = useNavigate();
  const handleError = useErrorHandler();
  const config = useAppConfig();
  const searchEnabled = config.on('search_enabled');
  const tag = useParams().tag ?? null;
  const [params, setParams] = useSearchParams();
  const sortBy = parseSort(params.get('sort'));
  const archived = parseArchived(params.get('archived'));
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const query = searchEnabled ? debouncedSearch : '';
  const filters: ConversationFilters = useMemo(() => ({ query, sortBy, archived, tag }), [query, sortBy, archived, tag]);
  const list = useConversationList(filters);
  const { data: models = [] } = useModels();
  const update = useUpdateConversation();
  const [form, setForm] = useState<{ conversation: Conversation | null } | null>(null);
  const [deleting, setDeleting] = useState<Conversation | null>(null);

  const setParam = useCallback(
    (key: string, value: string | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value === null) next.delete(key);
          else next.set(key, value);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );

  const archive = useCallback(
    (conversation: Conversation, archive: boolean) =>
      update.mutate(
        { conversation_id: conversation.conversation_id, archived: archive },
        {
          // spec part 2 §4: the archived flag decides the message; it resets when a conversation is unarchived.
          onSuccess: () => {
            showSuccess(archive ? t('list.archived') : t('list.unarchived'));
            if (!archive) setParam('archived', null);
          },
          onError: (error) => handleError(error),
        },
      ),
    [update, t, setParam, handleError],
  );
  const edit = useCallback((conversation: Conversation) => setForm({ conversation }), []);

  const conversations = useMemo(() => list.data?.pages.flatMap((page) => page.conversations) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? 0;
  // Past 1,000 (100 when searching) the server stops counting: "1,000+".
  const totalCapped = list.data?.pages[0]?.total_capped === true;
  const showRecent = searchEnabled && !tag && !archived && !query;
  const title = tag ? t('list.tagTitle', { tag }) : t('list.title');

  return (
    <Stack gap="lg" data-testid="conversations-page">
      <PageHeader
        title={title}
        description={tag ? undefined : t('list.description')}
        actions={
          <Button leftSection={<IconMessagePlus size={18} aria-hidden />} onClick={() => setForm({ conversation: null })} data-testid="new-conversation">
            {t('list.new')}
          </Button>
        }
      />
      {!tag && !archived && <StartChatBox />}
      <Group className={classes.toolbar} gap="md" align="flex-end" wrap="wrap">
        <ViewSwitch value={tag ? 'tags' : 'all'} />
        {searchEnabled && (
          <TextInput
            className={classes.search}
            type="search"
            label={t('list.search')}
            placeholder={t('list.searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={search}
            onChange={(event) => setSearch(event.currentTarget.value)}
            data-testid="conversation-search"
          />
        )}
        <Select
          label={t('list.sortLabel')}
          data={SORT_OPTIONS.map((option) => ({ value: option.value, label: t(option.labelKey) }))}
          value={sortBy}
          onChange={(value) => setParam('sort', value)}
          allowDeselect={false}
          w={{ base: '100%', xs: 230 }}
          data-testid="conversation-sort"
        />
        <Switch
          label={t('list.showArchived')}
          checked={archived}
          onChange={(event) => setParam('archived', event.currentTarget.checked ? '1' : null)}
          pb={8}
          data-testid="archived-toggle"
        />
      </Group>
      {showRecent && <RecentConversations />}
      {list.isPending ? (
        <CardSkeletons />
      ) : list.isError && conversations.length === 0 ? (
        <EmptyState
          icon={<IconMessages size={28} aria-hidden />}
          withIndicatorBackground
          title={t('list.loadFailed')}
          description={t('list.loadFailedBody')}
        >
          <EmptyState.Actions>
            <Button variant="default" onClick={() => void list.refetch()}>
              {t('actions.retry')}
            </Button>
          </EmptyState.Actions>
        </EmptyState>
      ) : conversations.length === 0 ? (
        <Card withBorder radius="lg" padding="xl">
          <EmptyState
            icon={<IconMessages size={28} aria-hidden />}
            withIndicatorBackground
            title={query ? t('list.noMatches', { query }) : archived ? t('list.emptyArchived') : tag ? t('list.emptyTag') : t('list.empty')}
            description={query || archived || tag ? undefined : t('list.emptyBody')}
            data-testid="conversations-empty"
          >
            {!query && !archived && !tag && (
              <EmptyState.Actions>
                <Button leftSection={<IconMessagePlus size={18} aria-hidden />} onClick={() => setForm({ conversation: null })}>
                  {t('list.new')}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Card>
      ) : (
        <Stack gap="md">
          <Text size="sm" c="var(--pluma-muted)" aria-live="polite">
            {totalCapped
              ? t('list.countCapped', { shown: conversations.length, total: formatNumber(total) })
              : t('list.count', { shown: conversations.length, count: total })}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy={list.isFetching}>
            {conversations.map((conversation) => (
              <ConversationCard
                key={conversation.conversation_id}
                conversation={conversation}
                modelLabel={modelLabel(conversation.model, models)}
                onEdit={edit}
                onArchive={archive}
                onDelete={setDeleting}
                busy={update.isPending && update.variables?.conversation_id === conversation.conversation_id}
              />
            ))}
          </SimpleGrid>
          {list.hasNextPage && (
            <Group justify="center">
              <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} data-testid="load-more">
                {t('list.loadMore')}
              </Button>
            </Group>
          )}
        </Stack>
      )}
      <ConversationFormModal
        opened={form !== null}
        conversation={form?.conversation}
        onClose={() => setForm(null)}
        onSaved={(saved, created) => {
          setForm(null);
          showSuccess(created ? t('list.created') : t('list.saved'));
          if (created) void navigate(`/conversations/${saved.conversation_id}`);
        }}
      />
      <DeleteConversationModal conversation={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function CardSkeletons() {
  const { t } = useTranslation('chat');
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" role="status" aria-label={t('list.loading')} data-testid="conversations-loading">
      {Array.from({ length: 6 }, (_, index) => (
        <Card key={index} withBorder radius="lg" padding="md" className={classes.card}>
          <Stack gap="sm">
            <Skeleton height={18} width="70%" />
            <Group gap={6}>
              <Skeleton height={18} width={56} radius="xl" />
              <Skeleton height={18} width={48} radius="xl" />
            </Group>
            <Skeleton height={12} width="40%" mt="md" />
            <Skeleton height={28} width={72} />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}

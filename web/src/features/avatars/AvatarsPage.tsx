// /avatars (spec part 2 §2 "Avatars and trainings"): the user's avatars with search and the add button, and
// the community variant listing public avatars (read-only, clonable). The defaults (conversation_assistant,
// Super Fetch) are never listed (the server filters them).
import { Anchor, Badge, Button, Card, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { CardGrid } from '../../ui/CardGrid';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { usePageTitle } from '../../ui/use-page-title';
import { AvatarFormModal } from './AvatarFormModal';
import { useAvatars, type AvatarListKind } from './avatars-api';

const CARD_HEIGHT = 150;

export default function AvatarsPage() {
  const { t } = useTranslation('avatars');
  usePageTitle(t('list.title'));
  const [params, setParams] = useSearchParams();
  const kind: AvatarListKind = params.get('list') === 'community' ? 'community' : 'mine';
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useAvatars(kind, debounced);
  const [adding, setAdding] = useState(false);
  const avatars = list.data?.avatars ?? [];

  return (
    <Stack gap="md" data-testid="avatars-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-avatar">
            {t('list.add')}
          </Button>
        }
      />
      <Group gap="md" align="flex-end">
        <SegmentedControl
          value={kind}
          onChange={(value) => setParams(value === 'community' ? { list: 'community' } : {})}
          data={[
            { value: 'mine', label: t('list.mine') },
            { value: 'community', label: t('list.community') },
          ]}
          data-testid="avatars-kind"
        />
        <SearchInput label={t('list.search')} value={search} onChange={setSearch} maw={420} style={{ flex: 1 }} data-testid="avatars-search" />
      </Group>
      {list.isError && (
        <LoadErrorAlert
          text={screenText({ failure: list.error, options: { premiumAsMessage: true } }, t) ?? t('list.loadError')}
          onRetry={() => void list.refetch()}
          retryLabel={t('retry')}
          data-testid="avatars-error"
        />
      )}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && avatars.length === 0}
        emptyText={debounced ? t('list.noMatch') : kind === 'community' ? t('list.communityEmpty') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'avatars-loading', empty: 'avatars-empty' }}
      >
        {avatars.map((avatar) => (
          <Card key={avatar.avatar_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="avatar-card">
            <Stack justify="space-between" h="100%" gap="xs">
              <Stack gap={4}>
                <Group justify="space-between" wrap="nowrap">
                  <Text fw={600} lineClamp={1}>
                    {avatar.name}
                  </Text>
                  {avatar.public && (
                    <Badge size="sm" variant="light">
                      {t('list.public')}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {avatar.description || avatar.context}
                </Text>
              </Stack>
              <Group justify="space-between">
                <Text size="xs" c="dimmed">
                  {kind === 'community' ? t('list.by', { name: `${avatar.author.name} ${avatar.author.last_name}`.trim() }) : t('list.files', { count: avatar.files_count })}
                </Text>
                <Anchor component={Link} to={`/avatars/${avatar.avatar_id}`} size="sm" data-testid="open-avatar">
                  {t('list.open')}
                </Anchor>
              </Group>
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <AvatarFormModal opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

// /workflows (spec part 2 §2 "Workflows"): the workflows admins built, with search; each opens its detail
// with Start. Staff admins also get New workflow; everyone gets a link to their own runs (/user_workflows).
import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { WORKFLOWS_PAGE_SIZE } from '@pluma/common/workflows';
import { IconListCheck, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { CardGrid } from '../../ui/CardGrid';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { useWorkflows } from './workflows-api';

const CARD_HEIGHT = 160;

export default function WorkflowsPage() {
  const { t } = useTranslation('workflows');
  const user = useCurrentUser();
  const isAdmin = user.staff?.role === 'admin';
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useWorkflows(debounced, page);
  const workflows = list.data?.workflows ?? [];

  return (
    <Stack gap="md" data-testid="workflows-page">
      <PageHeader
        title={t('list.title')}
        description={t('list.description')}
        actions={
          <>
            <Button component={Link} to="/user_workflows" variant="default" leftSection={<IconListCheck size={16} aria-hidden />} data-testid="my-workflows">
              {t('list.mine')}
            </Button>
            {isAdmin && (
              <Button component={Link} to="/workflows/new" leftSection={<IconPlus size={16} aria-hidden />} data-testid="new-workflow">
                {t('list.new')}
              </Button>
            )}
          </>
        }
      />
      <SearchInput
        label={t('list.search')}
        value={search}
        onChange={(v) => {
          setSearch(v);
          setPage(1);
        }}
        maw={420}
        data-testid="workflows-search"
      />
      {list.isError && <LoadErrorAlert text={t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && workflows.length === 0}
        emptyText={debounced ? t('list.noMatch') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'workflows-loading', empty: 'workflows-empty' }}
      >
        {workflows.map((workflow) => (
          <Card key={workflow.workflow_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="workflow-card">
            <Stack justify="space-between" h="100%" gap="xs">
              <Stack gap={4}>
                <Text fw={600} lineClamp={1}>
                  {workflow.name}
                </Text>
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {workflow.description}
                </Text>
              </Stack>
              <Group justify="space-between" wrap="nowrap">
                <Group gap={4} wrap="nowrap" style={{ overflow: 'hidden' }}>
                  <Badge size="sm" variant="light">
                    {t('list.steps', { count: workflow.templates.length })}
                  </Badge>
                  {workflow.tags.slice(0, 1).map((tag) => (
                    <Badge key={tag} size="sm" variant="outline">
                      {tag}
                    </Badge>
                  ))}
                </Group>
                <Anchor component={Link} to={`/workflows/${workflow.workflow_id}`} size="sm" data-testid="open-workflow">
                  {t('list.open')}
                </Anchor>
              </Group>
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <ListPagination total={Math.ceil((list.data?.total ?? 0) / WORKFLOWS_PAGE_SIZE)} value={page} onChange={setPage} />
    </Stack>
  );
}

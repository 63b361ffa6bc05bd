// /user_workflows (spec part 2 §2 "User workflow list ('You don't have any workflows' when empty)"): the
// user's runs in the current context, newest first, each opening its detail.
import { Anchor, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { USER_WORKFLOWS_PAGE_SIZE } from '@pluma/common/workflows';
import { IconRoute } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardGrid } from '../../ui/CardGrid';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { useUserWorkflows } from './workflows-api';

const CARD_HEIGHT = 130;

export default function UserWorkflowsPage() {
  const { t } = useTranslation('workflows');
  const [page, setPage] = useState(1);
  const list = useUserWorkflows(page);
  const runs = list.data?.user_workflows ?? [];

  return (
    <Stack gap="md" data-testid="user-workflows-page">
      <PageHeader
        title={t('mine.title')}
        description={t('mine.description')}
        actions={
          <Button component={Link} to="/workflows" variant="default" leftSection={<IconRoute size={16} aria-hidden />}>
            {t('mine.browse')}
          </Button>
        }
      />
      {list.isError && <LoadErrorAlert text={t('mine.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && runs.length === 0}
        emptyText={t('mine.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'user-workflows-loading', empty: 'user-workflows-empty' }}
      >
        {runs.map((run) => (
          <Card key={run.user_workflow_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="user-workflow-card">
            <Stack justify="space-between" h="100%" gap="xs">
              <Text fw={600} lineClamp={2}>
                {run.name}
              </Text>
              <Group justify="space-between" wrap="nowrap">
                <Group gap={4}>
                  <Badge size="sm" variant="light">
                    {t('list.steps', { count: run.user_workflow_templates.length })}
                  </Badge>
                  {!run.complete && (
                    <Badge size="sm" variant="light" color="yellow">
                      {t('mine.valuesMissing')}
                    </Badge>
                  )}
                </Group>
                <Anchor component={Link} to={`/user_workflows/${run.user_workflow_id}`} size="sm" data-testid="open-user-workflow">
                  {t('list.open')}
                </Anchor>
              </Group>
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <ListPagination total={Math.ceil((list.data?.total ?? 0) / USER_WORKFLOWS_PAGE_SIZE)} value={page} onChange={setPage} />
    </Stack>
  );
}

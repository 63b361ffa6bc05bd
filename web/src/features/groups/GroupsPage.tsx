// /organization/groups (spec part 2 §2 "Groups list"): 'Organization Groups', search by name, Create Group
// for non-Members; cards (height 130px) with the name, edit and delete icons for non-Members (the group's
// abilities) and a view link. A Member sees the groups the server lists for them.
import { Anchor, Button, Card, Group as Row, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { Group } from '@pluma/common/groups';
import type { Organization } from '@pluma/common/organizations';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardGrid } from '../../ui/CardGrid';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { WithActiveOrganization } from '../organizations';
import { DeleteGroupModal } from './DeleteGroupModal';
import { GroupFormModal } from './GroupFormModal';
import { useGroups } from './groups-api';

/** spec part 2 §2: group cards are 130px high. */
const CARD_HEIGHT = 130;

export default function GroupsPage() {
  return <WithActiveOrganization>{(organization) => <GroupsList organization={organization} />}</WithActiveOrganization>;
}

function GroupsList({ organization }: { organization: Organization }) {
  const { t } = useTranslation('groups');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const list = useGroups(organization.organization_id, debounced);
  const [editing, setEditing] = useState<Group | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);
  const groups = list.data?.groups ?? [];

  return (
    <Stack gap="md" data-testid="groups-page">
      <PageHeader
        title={t('list.title')}
        description={organization.name}
        actions={
          organization.abilities.manage_groups && (
            <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')} data-testid="create-group">
              {t('list.create')}
            </Button>
          )
        }
      />
      <SearchInput label={t('list.search')} value={search} onChange={setSearch} maw={420} data-testid="groups-search" />
      {list.isError && <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('list.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="groups-error" />}
      <CardGrid
        pending={list.isPending}
        empty={list.isSuccess && groups.length === 0}
        emptyText={debounced ? t('list.noMatch') : t('list.empty')}
        cardHeight={CARD_HEIGHT}
        testIds={{ loading: 'groups-loading', empty: 'groups-empty' }}
      >
        {groups.map((group) => (
          <Card key={group.group_id} withBorder radius="md" padding="md" style={{ height: CARD_HEIGHT }} data-testid="group-card">
            <Stack justify="space-between" h="100%" gap="xs">
              <Row justify="space-between" wrap="nowrap" align="flex-start">
                <Text fw={600} lineClamp={2}>
                  {group.name}
                </Text>
                <Row gap={4} wrap="nowrap">
                  {group.abilities.update && (
                    <TooltipIconButton tooltip={t('list.edit')} label={t('list.editOf', { name: group.name })} onClick={() => setEditing(group)} data-testid="edit-group">
                      <IconEdit size={16} aria-hidden />
                    </TooltipIconButton>
                  )}
                  {group.abilities.delete && (
                    <TooltipIconButton tooltip={t('list.delete')} label={t('list.deleteOf', { name: group.name })} color="red" onClick={() => setDeleting(group)} data-testid="delete-group">
                      <IconTrash size={16} aria-hidden />
                    </TooltipIconButton>
                  )}
                </Row>
              </Row>
              <Row justify="space-between">
                <Text size="sm" c="dimmed">
                  {t('list.users', { count: group.users_count })}
                </Text>
                <Anchor component={Link} to={`/organization/groups/${group.group_id}`} size="sm" data-testid="view-group">
                  {t('list.view')}
                </Anchor>
              </Row>
            </Stack>
          </Card>
        ))}
      </CardGrid>
      <GroupFormModal organizationId={organization.organization_id} group={editing} onClose={() => setEditing(null)} />
      <DeleteGroupModal group={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

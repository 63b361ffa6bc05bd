// /organization/groups (spec part 2 §2 "Groups list"): 'Organization Groups', search by name, Create Group
// for non-Members; cards (height 130px) with the name, edit and delete icons for non-Members (the group's
// abilities) and a view link. A Member sees the groups the server lists for them.
import { Alert, Anchor, Button, Card, Group as Row, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { Group } from '@pluma/common/groups';
import type { Organization } from '@pluma/common/organizations';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { WithActiveOrganization } from '../organizations/ActiveOrganization';
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
      <TextInput label={t('list.search')} leftSection={<IconSearch size={16} aria-hidden />} value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={420} data-testid="groups-search" />
      {list.isError && (
        <Alert color="red" role="alert" data-testid="groups-error">
          <Row justify="space-between">
            <Text size="sm">{screenText({ failure: list.error }, t) ?? t('list.loadError')}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Row>
        </Alert>
      )}
      {list.isPending && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="groups-loading">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} height={CARD_HEIGHT} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {list.isSuccess && groups.length === 0 && (
        <Text c="dimmed" py="lg" data-testid="groups-empty">
          {debounced ? t('list.noMatch') : t('list.empty')}
        </Text>
      )}
      {groups.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
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
        </SimpleGrid>
      )}
      <GroupFormModal organizationId={organization.organization_id} group={editing} onClose={() => setEditing(null)} />
      <DeleteGroupModal group={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

// /organization/groups/{groupId} (spec part 2 §2 "Group page"): the group's users table and, for
// non-Members, 'Add Users to Group', rename, delete (then back one step, §4) and per-row removal.
import { Anchor, Button, Skeleton, Stack, Table } from '@mantine/core';
import type { Organization } from '@pluma/common/organizations';
import { IconEdit, IconTrash, IconUserPlus, IconX } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { showSuccess } from '../../ui/alerts';
import { LabelledTd, ListTable } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { TableStateRows } from '../../ui/TableStateRows';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { WithActiveOrganization } from '../organizations';
import { AddGroupUsersModal } from './AddGroupUsersModal';
import { DeleteGroupModal } from './DeleteGroupModal';
import { GroupFormModal } from './GroupFormModal';
import { GROUPS_KEY, removeGroupUser, useGroup } from './groups-api';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';

const ROLE_OF: Record<number, string> = { 1: 'admin', 2: 'manager', 3: 'member' };

export default function GroupPage() {
  return <WithActiveOrganization>{(organization) => <GroupDetailView organization={organization} />}</WithActiveOrganization>;
}

function GroupDetailView({ organization }: { organization: Organization }) {
  const { t } = useTranslation('groups');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const param = useParams().groupId ?? '';
  const groupId = /^\d+$/.test(param) ? Number(param) : null;
  const group = useGroup(groupId);
  useBreadcrumbLabel(`/organization/groups/${param}`, group.data?.name ?? t('detail.crumb'));
  const [adding, setAdding] = useState(false);
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const removeUser = useMutation({
    mutationFn: (userId: number) => removeGroupUser(groupId ?? 0, userId),
    onSuccess: () => {
      showSuccess(t('users.removed'));
      void queryClient.invalidateQueries({ queryKey: GROUPS_KEY });
    },
    onError: (e) => handleError(e),
  });

  if (groupId === null || group.isError)
    return <LoadErrorAlert text={screenText({ failure: group.error }, t) ?? t('list.loadError')} data-testid="group-error" />;
  if (group.isPending) return <Skeleton height={240} data-testid="group-loading" />;
  const g = group.data;
  const users = g.group_users.map((row) => row.user);

  return (
    <Stack gap="md" data-testid="group-page">
      <PageHeader
        title={g.name}
        actions={
          <>
            {g.abilities.add_users && (
              <Button leftSection={<IconUserPlus size={16} aria-hidden />} onClick={() => setAdding(true)} data-testid="add-group-users">
                {t('users.addTitle')}
              </Button>
            )}
            {g.abilities.update && (
              <Button variant="default" leftSection={<IconEdit size={16} aria-hidden />} onClick={() => setRenaming(true)} data-testid="rename-group">
                {t('list.edit')}
              </Button>
            )}
            {g.abilities.delete && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)} data-testid="delete-group">
                {t('list.delete')}
              </Button>
            )}
          </>
        }
      />
      <ListTable
        minWidth={560}
        stacked
        verticalSpacing="xs"
        data-testid="group-users"
        head={
          <>
            <Table.Th>{t('users.id')}</Table.Th>
            <Table.Th>{t('users.name')}</Table.Th>
            <Table.Th>{t('users.email')}</Table.Th>
            <Table.Th>{t('users.role')}</Table.Th>
            {g.abilities.remove_users && <Table.Th>{t('users.actions')}</Table.Th>}
          </>
        }
      >
        <TableStateRows pending={false} empty={users.length === 0} columns={g.abilities.remove_users ? 5 : 4} emptyText={t('users.empty')} emptyTestId="group-users-empty" />
        {users.map((user) => {
          const name = `${user.name} ${user.last_name}`.trim() || user.email;
          return (
            <Table.Tr key={user.user_id} data-testid="group-user-row">
              <LabelledTd label={t('users.id')}>#{user.user_id}</LabelledTd>
              <LabelledTd label={t('users.name')}>
                {/* spec part 2 §2 /organization/groups/{groupId}/users/{userId}: the user detail, for who may see users. */}
                {organization.abilities.view_users ? (
                  <Anchor component={Link} to={`/organization/groups/${g.group_id}/users/${user.user_id}`}>
                    {name}
                  </Anchor>
                ) : (
                  name
                )}
              </LabelledTd>
              <LabelledTd label={t('users.email')}>{user.email}</LabelledTd>
              <LabelledTd label={t('users.role')}>{t(`roles.${ROLE_OF[user.user_type_id] ?? 'member'}`)}</LabelledTd>
              {g.abilities.remove_users && (
                <LabelledTd label={t('users.actions')}>
                  <TooltipIconButton tooltip={t('users.remove')} label={t('users.removeOf', { name })} color="red" loading={removeUser.isPending && removeUser.variables === user.user_id} onClick={() => removeUser.mutate(user.user_id)}>
                    <IconX size={16} aria-hidden />
                  </TooltipIconButton>
                </LabelledTd>
              )}
            </Table.Tr>
          );
        })}
      </ListTable>
      <AddGroupUsersModal groupId={g.group_id} opened={adding} onClose={() => setAdding(false)} />
      <GroupFormModal organizationId={g.organization_id} group={renaming ? g : null} onClose={() => setRenaming(false)} />
      {/* spec part 2 §4: a group deleted on its page goes back one step. */}
      <DeleteGroupModal group={deleting ? g : null} onClose={() => setDeleting(false)} onDeleted={() => void navigate(-1)} />
    </Stack>
  );
}

// /organization/admin-panel (spec part 2 §2 "Organization admin user table"): #ID, Name, Email, Role,
// Total Words, Last used, LTV ($) of the active organization's users; search (500 ms debounce) and a date
// range (default: the current month, §9); unused users show 'Not used yet'. Only the Admin gets Add, Edit
// and Remove (§6; the organization's abilities.manage_users), and the invitations nobody answered yet, which
// the Admin may revoke (issue 30 item 12). On phones each row is a card (issue 30 item 20).
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { ORGANIZATION_MEMBERS_PAGE_SIZE, type Organization, type OrganizationUserRow, type PendingOrganizationInvitation } from '@pluma/common/organizations';
import { currentMonthRange, localDay, type DateRange } from '@pluma/common/rules/date-range';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DateRangeInput } from '../../ui/DateRangeInput';
import { ListPagination } from '../../ui/ListPagination';
import { showSuccess } from '../../ui/alerts';
import { LabelledTd, ListTable, WholeTd } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TableStateRows } from '../../ui/TableStateRows';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { useListControls } from '../../ui/use-list-controls';
import { formatDateTime, formatMoney, formatNumber } from '../admin-users';
import { WithActiveOrganization } from './ActiveOrganization';
import { RemoveMemberModal } from './RemoveMemberModal';
import { pendingInvitationsKey, revokeInvitation, useOrganizationUsers, usePendingInvitations } from './organizations-api';

export default function MembersPage() {
  return <WithActiveOrganization>{(organization) => <MembersTable organization={organization} />}</WithActiveOrganization>;
}

const COLUMNS = ['id', 'name', 'email', 'role', 'totalWords', 'lastUsed', 'ltv'] as const;

function MembersTable({ organization }: { organization: Organization }) {
  const { t, i18n } = useTranslation('organizations');
  const lang = i18n.language;
  const navigate = useNavigate();
  const [range, setRange] = useState<DateRange>(() => currentMonthRange(localDay(new Date())));
  const { search, setSearch, query, page, setPage, pageCount } = useListControls(ORGANIZATION_MEMBERS_PAGE_SIZE, range);
  const [removing, setRemoving] = useState<OrganizationUserRow | null>(null);
  const list = useOrganizationUsers(organization.organization_id, { ...range, page, ...(query ? { query } : {}) });
  const pages = pageCount(list.data?.total);
  const isAdmin = organization.abilities.manage_users;
  const columns = isAdmin ? COLUMNS.length + 1 : COLUMNS.length;

  if (!organization.abilities.view_users)
    return (
      <Alert color="yellow" data-testid="members-refused">
        {t('members.notAllowed')}
      </Alert>
    );

  return (
    <Stack gap="md" data-testid="members-page">
      <PageHeader
        title={t('members.title')}
        description={organization.name}
        actions={
          isAdmin && (
            <Button component={Link} to="/organization/admin-panel/new" leftSection={<IconPlus size={16} aria-hidden />} data-testid="add-member">
              {t('members.add')}
            </Button>
          )
        }
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SearchInput label={t('members.search')} value={search} onChange={setSearch} style={{ flex: '1 1 240px' }} data-testid="members-search" />
        <DateRangeInput label={t('members.dates')} value={range} onChange={setRange} data-testid="members-date-range" />
      </Group>
      {list.isError ? (
        <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('members.loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} data-testid="members-error" />
      ) : (
        <ListTable
          minWidth={860}
          stacked
          verticalSpacing="xs"
          highlightOnHover
          data-testid="members-table"
          aria-busy={list.isFetching}
          head={
            <>
              {COLUMNS.map((column) => (
                <Table.Th key={column} ta={column === 'totalWords' || column === 'ltv' ? 'right' : undefined}>
                  {t(`members.columns.${column}`)}
                </Table.Th>
              ))}
              {isAdmin && <Table.Th>{t('members.columns.actions')}</Table.Th>}
            </>
          }
        >
          <TableStateRows pending={list.isPending} empty={list.data?.users.length === 0} columns={columns} skeletonRows={3} emptyText={t('members.empty')} emptyTestId="members-empty" />
          {list.data?.users.map((user) => {
            const name = `${user.name} ${user.last_name}`.trim();
            const detail = `/organization/admin-panel/users/${user.user_id}`;
            return (
              <Table.Tr key={user.user_id} data-testid="member-row">
                <LabelledTd label={t('members.columns.id')}>
                  <Anchor component={Link} to={detail}>
                    #{user.user_id}
                  </Anchor>
                </LabelledTd>
                <LabelledTd label={t('members.columns.name')}>
                  <Anchor component={Link} to={detail} c="inherit">
                    {name || user.email}
                  </Anchor>
                </LabelledTd>
                <LabelledTd label={t('members.columns.email')}>{user.email}</LabelledTd>
                <LabelledTd label={t('members.columns.role')}>{t(`roles.${user.role}`)}</LabelledTd>
                <LabelledTd label={t('members.columns.totalWords')} ta="right">
                  {formatNumber(user.total_words, lang)}
                </LabelledTd>
                <WholeTd label={t('members.columns.lastUsed')}>{user.last_used ? formatDateTime(user.last_used, lang) : t('members.notUsed')}</WholeTd>
                <LabelledTd label={t('members.columns.ltv')} ta="right">
                  {formatMoney(user.ltv, lang)}
                </LabelledTd>
                {isAdmin && (
                  <WholeTd label={t('members.columns.actions')}>
                    <Group gap={4} wrap="nowrap">
                      <TooltipIconButton tooltip={t('members.edit')} label={t('members.editOf', { name: name || user.email })} onClick={() => void navigate(`/organization/admin-panel/${user.user_id}`)}>
                        <IconEdit size={16} aria-hidden />
                      </TooltipIconButton>
                      <TooltipIconButton tooltip={t('members.remove')} label={t('members.removeOf', { name: name || user.email })} color="red" onClick={() => setRemoving(user)}>
                        <IconTrash size={16} aria-hidden />
                      </TooltipIconButton>
                    </Group>
                  </WholeTd>
                )}
              </Table.Tr>
            );
          })}
        </ListTable>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="members-total">
          {t('members.total', { count: list.data?.total ?? 0 })}
        </Text>
        <ListPagination total={pages} value={page} onChange={setPage} />
      </Group>
      {isAdmin && <PendingInvitations organizationId={organization.organization_id} />}
      <RemoveMemberModal organizationId={organization.organization_id} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

/** The Admin's invitations nobody has answered yet (issue 30 item 12): email, role, when; Revoke withdraws one. */
function PendingInvitations({ organizationId }: { organizationId: number }) {
  const { t, i18n } = useTranslation('organizations');
  const lang = i18n.language;
  const pending = usePendingInvitations(organizationId, true);
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const revoke = useMutation({
    mutationFn: (invitation: PendingOrganizationInvitation) => revokeInvitation(organizationId, invitation.invitation_id),
    onSuccess: () => showSuccess(t('members.revoked')),
    onError: (error) => handleError(error),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: pendingInvitationsKey(organizationId) }),
  });
  const invitations = pending.data?.invitations ?? [];
  if (invitations.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="pending-invitations">
      <Title order={2} fz="md">
        {t('members.pendingTitle')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('members.pendingHelp')}
      </Text>
      <ListTable
        minWidth={560}
        stacked
        verticalSpacing="xs"
        head={
          <>
            <Table.Th>{t('members.columns.email')}</Table.Th>
            <Table.Th>{t('members.columns.role')}</Table.Th>
            <Table.Th>{t('members.invitedOn')}</Table.Th>
            <Table.Th>{t('members.columns.actions')}</Table.Th>
          </>
        }
      >
        {invitations.map((invitation) => (
          <Table.Tr key={invitation.invitation_id} data-testid="pending-invitation">
            <LabelledTd label={t('members.columns.email')}>{invitation.email}</LabelledTd>
            <LabelledTd label={t('members.columns.role')}>{t(`roles.${invitation.role}`)}</LabelledTd>
            <WholeTd label={t('members.invitedOn')}>{formatDateTime(invitation.createdAt, lang)}</WholeTd>
            <WholeTd label={t('members.columns.actions')}>
              <TooltipIconButton
                tooltip={t('members.revoke')}
                label={t('members.revokeOf', { email: invitation.email })}
                color="red"
                disabled={revoke.isPending}
                onClick={() => revoke.mutate(invitation)}
                data-testid="revoke-invitation"
              >
                <IconTrash size={16} aria-hidden />
              </TooltipIconButton>
            </WholeTd>
          </Table.Tr>
        ))}
      </ListTable>
    </Stack>
  );
}

// /organization/admin-panel (spec part 2 §2 "Organization admin user table"): #ID, Name, Email, Role,
// Total Words, Last used, LTV ($) of the active organization's users; search (500 ms debounce) and a date
// range (default: the current month, §9); unused users show 'Not used yet'. Only the Admin gets Add, Edit
// and Remove (§6; the organization's abilities.manage_users).
import { Alert, Anchor, Button, Group, Stack, Table, Text } from '@mantine/core';
import { ORGANIZATION_MEMBERS_PAGE_SIZE, type Organization, type OrganizationUserRow } from '@pluma/common/organizations';
import { currentMonthRange, localDay, type DateRange } from '@pluma/common/rules/date-range';
import { IconEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DateRangeInput } from '../../ui/DateRangeInput';
import { ListPagination } from '../../ui/ListPagination';
import { ListTable } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { TableStateRows } from '../../ui/TableStateRows';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useListControls } from '../../ui/use-list-controls';
import { formatDateTime, formatMoney, formatNumber } from '../admin-users';
import { WithActiveOrganization } from './ActiveOrganization';
import { RemoveMemberModal } from './RemoveMemberModal';
import { useOrganizationUsers } from './organizations-api';

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
                <Table.Td>
                  <Anchor component={Link} to={detail}>
                    #{user.user_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={detail} c="inherit">
                    {name || user.email}
                  </Anchor>
                </Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>{t(`roles.${user.role}`)}</Table.Td>
                <Table.Td ta="right">{formatNumber(user.total_words, lang)}</Table.Td>
                <Table.Td>{user.last_used ? formatDateTime(user.last_used, lang) : t('members.notUsed')}</Table.Td>
                <Table.Td ta="right">{formatMoney(user.ltv, lang)}</Table.Td>
                {isAdmin && (
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <TooltipIconButton tooltip={t('members.edit')} label={t('members.editOf', { name: name || user.email })} onClick={() => void navigate(`/organization/admin-panel/${user.user_id}`)}>
                        <IconEdit size={16} aria-hidden />
                      </TooltipIconButton>
                      <TooltipIconButton tooltip={t('members.remove')} label={t('members.removeOf', { name: name || user.email })} color="red" onClick={() => setRemoving(user)}>
                        <IconTrash size={16} aria-hidden />
                      </TooltipIconButton>
                    </Group>
                  </Table.Td>
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
      <RemoveMemberModal organizationId={organization.organization_id} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

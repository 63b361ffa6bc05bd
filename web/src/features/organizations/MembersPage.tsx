// /organization/admin-panel (spec part 2 §2 "Organization admin user table"): #ID, Name, Email, Role,
// Total Words, Last used, LTV ($) of the active organization's users; search (500 ms debounce) and a date
// range (default: the current month, §9); unused users show 'Not used yet'. Only the Admin gets Add, Edit
// and Remove (§6; the organization's abilities.manage_users).
import { Alert, Anchor, Button, Group, Pagination, Skeleton, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { ORGANIZATION_MEMBERS_PAGE_SIZE, type Organization, type OrganizationUserRow } from '@pluma/common/organizations';
import { currentMonthRange, localDay, type DateRange } from '@pluma/common/rules/date-range';
import { IconEdit, IconPlus, IconSearch, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { DateRangeInput } from '../../ui/DateRangeInput';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { formatDateTime, formatMoney, formatNumber } from '../admin-users/customers-view';
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
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [range, setRange] = useState<DateRange>(() => currentMonthRange(localDay(new Date())));
  const [page, setPage] = useState(1);
  const [removing, setRemoving] = useState<OrganizationUserRow | null>(null);
  const list = useOrganizationUsers(organization.organization_id, { ...range, page, ...(debounced ? { query: debounced } : {}) });
  const pages = Math.max(1, Math.ceil((list.data?.total ?? 0) / ORGANIZATION_MEMBERS_PAGE_SIZE));
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
        <TextInput
          label={t('members.search')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 240px' }}
          data-testid="members-search"
        />
        <DateRangeInput
          label={t('members.dates')}
          value={range}
          onChange={(next) => {
            setRange(next);
            setPage(1);
          }}
          data-testid="members-date-range"
        />
      </Group>
      {list.isError ? (
        <Alert color="red" role="alert" data-testid="members-error">
          <Group justify="space-between">
            <Text size="sm">{screenText({ failure: list.error }, t) ?? t('members.loadError')}</Text>
            <Button size="xs" variant="default" onClick={() => void list.refetch()}>
              {t('retry')}
            </Button>
          </Group>
        </Alert>
      ) : (
        <Table.ScrollContainer minWidth={860}>
          <Table verticalSpacing="xs" highlightOnHover data-testid="members-table" aria-busy={list.isFetching}>
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((column) => (
                  <Table.Th key={column} ta={column === 'totalWords' || column === 'ltv' ? 'right' : undefined}>
                    {t(`members.columns.${column}`)}
                  </Table.Th>
                ))}
                {isAdmin && <Table.Th>{t('members.columns.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.isPending &&
                [0, 1, 2].map((i) => (
                  <Table.Tr key={i}>
                    <Table.Td colSpan={columns}>
                      <Skeleton height={20} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              {list.data?.users.length === 0 && (
                <Table.Tr>
                  <Table.Td colSpan={columns}>
                    <Text ta="center" c="dimmed" py="md" data-testid="members-empty">
                      {t('members.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              )}
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
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="members-total">
          {t('members.total', { count: list.data?.total ?? 0 })}
        </Text>
        {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
      </Group>
      <RemoveMemberModal organizationId={organization.organization_id} member={removing} onClose={() => setRemoving(null)} />
    </Stack>
  );
}

// /admin/users (spec part 1 §2 "Admin customers table"): #ID, Name, Email, Role, Total Words, Last used,
// LTV ($); sortable headers; 50 a page; search with a field filter and a 500 ms debounce; the sign-up date
// range (the current month by default); Add for admins; 'Not used yet'; WhatsApp links with prefix 52.
import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { CUSTOMER_SEARCH_FIELDS, CUSTOMERS_PAGE_SIZE, type CustomerSearchField, type CustomerSortKey } from '@pluma/common/admin-users';
import { currentMonthRange, localDay } from '@pluma/common/rules/date-range';
import { IconBrandWhatsapp, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { ListTable } from '../../ui/ListTable';
import { PageHeader } from '../../ui/PageHeader';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { SortableTh } from '../../ui/SortableTh';
import { TableStateRows } from '../../ui/TableStateRows';
import { useListControls } from '../../ui/use-list-controls';
import { useCustomers } from './admin-users-api';
import { nextSort, formatDateTime, formatMoney, formatNumber, whatsappLink } from './customers-view';
import { DateRangeInput, type OptionalRange } from '../../ui/DateRangeInput';

const COLUMNS: { key: CustomerSortKey; labelKey: string; numeric?: boolean }[] = [
  { key: 'user_id', labelKey: 'list.id' },
  { key: 'name', labelKey: 'list.name' },
  { key: 'email', labelKey: 'list.email' },
  { key: 'role', labelKey: 'list.role' },
  { key: 'total_words', labelKey: 'list.totalWords', numeric: true },
  { key: 'last_used', labelKey: 'list.lastUsed' },
  { key: 'ltv', labelKey: 'list.ltv', numeric: true },
];

export default function CustomersPage() {
  const { t, i18n } = useTranslation('admin-users');
  const me = useCurrentUser();
  const [field, setField] = useState<CustomerSearchField>('all');
  const [range, setRange] = useState<OptionalRange>(() => currentMonthRange(localDay(new Date())));
  const [order, setOrder] = useState<{ sort: CustomerSortKey; direction: 'asc' | 'desc' }>({ sort: 'user_id', direction: 'desc' });
  const { search, setSearch, query: debounced, page, setPage, pageCount } = useListControls(CUSTOMERS_PAGE_SIZE, [field, range, order]);
  const query = { ...range, ...order, field, page, ...(debounced ? { query: debounced } : {}) };
  const list = useCustomers(query);
  const pages = pageCount(list.data?.total);

  return (
    <Stack gap="md" data-testid="customers-page">
      <PageHeader
        title={t('list.title')}
        actions={
          me.staff?.role === 'admin' && (
            <Button component={Link} to="/admin/users/new/edit" leftSection={<IconPlus size={16} aria-hidden />} data-testid="add-customer">
              {t('list.add')}
            </Button>
          )
        }
      />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <SearchInput label={t('list.search')} value={search} onChange={setSearch} style={{ flex: '1 1 240px' }} data-testid="customers-search" />
        <Select
          label={t('list.field')}
          data={CUSTOMER_SEARCH_FIELDS.map((value) => ({ value, label: t(`fields.${value}`) }))}
          value={field}
          onChange={(value) => setField((value as CustomerSearchField | null) ?? 'all')}
          allowDeselect={false}
          w={170}
          data-testid="customers-field"
        />
        <DateRangeInput clearable label={t('list.signupDates')} value={range} onChange={setRange} data-testid="customers-date-range" />
      </Group>

      {list.isError ? (
        <LoadErrorAlert text={screenText({ failure: list.error }, t) ?? t('loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />
      ) : (
        <ListTable
          minWidth={860}
          verticalSpacing="xs"
          highlightOnHover
          data-testid="customers-table"
          aria-busy={list.isFetching}
          head={
            <>
              {COLUMNS.map((column) => (
                <SortableTh
                  key={column.key}
                  label={t(column.labelKey)}
                  active={order.sort === column.key}
                  direction={order.direction}
                  onSort={() => setOrder(nextSort(order, column.key))}
                  numeric={column.numeric}
                  fw={600}
                  data-testid={`sort-${column.key}`}
                />
              ))}
            </>
          }
        >
          <TableStateRows pending={list.isPending} empty={list.data?.users.length === 0} columns={COLUMNS.length} skeletonRows={5} emptyText={t('list.empty')} emptyTestId="customers-empty" />
          {list.data?.users.map((user) => {
            const whatsapp = whatsappLink(user.phone);
            return (
              <Table.Tr key={user.user_id} data-testid="customer-row">
                <Table.Td>
                  <Anchor component={Link} to={`/admin/users/${user.user_id}`}>
                    #{user.user_id}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/admin/users/${user.user_id}`} c="inherit">
                    {`${user.name} ${user.last_name}`.trim()}
                  </Anchor>
                  {whatsapp && (
                    <Anchor href={whatsapp} target="_blank" rel="noopener noreferrer" size="xs" display="flex" aria-label={t('list.whatsapp', { phone: user.phone })}>
                      <IconBrandWhatsapp size={14} aria-hidden /> {user.phone}
                    </Anchor>
                  )}
                </Table.Td>
                <Table.Td>{user.email}</Table.Td>
                <Table.Td>{t(`roles.${user.role ?? 'customer'}`)}</Table.Td>
                <Table.Td ta="right">{formatNumber(user.total_words, i18n.language)}</Table.Td>
                <Table.Td>{user.last_used ? formatDateTime(user.last_used, i18n.language) : t('list.notUsed')}</Table.Td>
                <Table.Td ta="right">{formatMoney(user.ltv, i18n.language)}</Table.Td>
              </Table.Tr>
            );
          })}
        </ListTable>
      )}
      <Group justify="space-between">
        <Text size="sm" c="dimmed" data-testid="customers-total">
          {t('list.total', { count: list.data?.total ?? 0 })}
        </Text>
        <ListPagination total={pages} value={page} onChange={setPage} getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })} />
      </Group>
    </Stack>
  );
}

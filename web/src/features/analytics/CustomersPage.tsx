// /admin/analytics/customers (spec part 1 §2 "Analytics customers"): counters for sign-ups, active customers
// and cancelled customers, each expanding into its list (12 a page).
import { Button, Card, Pagination, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { ANALYTICS_LIST_PAGE_SIZE, CUSTOMER_LISTS, type CustomerList } from '@pluma/common/rules/analytics-lists';
import type { DateRange } from '@pluma/common/rules/date-range';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCustomers } from './analytics-api';
import { formatDay, formatNumber } from './analytics-view';
import { AnalyticsFrame, Loaded, useMonthRange } from './AnalyticsFrame';

function CustomerListCard({ range, list }: { range: DateRange; list: CustomerList }) {
  const { t, i18n } = useTranslation('analytics');
  const [page, setPage] = useState(1);
  const query = useCustomers(range, list, page);
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-label={t(`customers.${list}`)} data-testid={`list-${list}`}>
      <Title order={2} fz="lg" mb="sm">
        {t(`customers.${list}`)}
      </Title>
      <Loaded query={query}>
        {(data) =>
          !data.list || data.list.rows.length === 0 ? (
            <Text c="dimmed">{t('customers.empty')}</Text>
          ) : (
            <Stack gap="sm">
              <Table.ScrollContainer minWidth={480}>
                <Table>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('customers.name')}</Table.Th>
                      <Table.Th>{t('customers.email')}</Table.Th>
                      <Table.Th>{t('customers.date')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.list.rows.map((row) => (
                      <Table.Tr key={row.user_id}>
                        <Table.Td>
                          <Link to={`/admin/users/${row.user_id}`}>{`${row.name} ${row.last_name}`.trim()}</Link>
                        </Table.Td>
                        <Table.Td>{row.email}</Table.Td>
                        <Table.Td>{formatDay(row.date, i18n.language)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              {data.list.total > ANALYTICS_LIST_PAGE_SIZE && (
                <Pagination total={Math.ceil(data.list.total / ANALYTICS_LIST_PAGE_SIZE)} value={page} onChange={setPage} siblings={1} boundaries={1} />
              )}
            </Stack>
          )
        }
      </Loaded>
    </Card>
  );
}

export default function CustomersPage() {
  const { t, i18n } = useTranslation('analytics');
  const [range, setRange] = useMonthRange();
  const [open, setOpen] = useState<CustomerList | null>(null);
  const counts = useCustomers(range);
  return (
    <AnalyticsFrame title={t('customers.title')} description={t('customers.description')} range={range} onRange={setRange} testId="analytics-customers">
      <Loaded query={counts}>
        {(data) => (
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {CUSTOMER_LISTS.map((list) => {
              const label = t(`customers.${list}`);
              const expanded = open === list;
              return (
                <Card key={list} withBorder radius="lg" padding="lg">
                  <Text size="sm" c="dimmed">
                    {label}
                  </Text>
                  <Text fz={28} fw={700} data-testid={`count-${list}`}>
                    {formatNumber(data[list], i18n.language)}
                  </Text>
                  <Button
                    variant="subtle"
                    size="xs"
                    mt="xs"
                    px={0}
                    rightSection={expanded ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
                    onClick={() => setOpen(expanded ? null : list)}
                    aria-expanded={expanded}
                    aria-controls={`list-${list}`}
                  >
                    {expanded ? t('customers.hide', { counter: label.toLowerCase() }) : t('customers.show', { counter: label.toLowerCase() })}
                  </Button>
                </Card>
              );
            })}
          </SimpleGrid>
        )}
      </Loaded>
      {open && <CustomerListCard key={`${open}-${range.start_date}-${range.end_date}`} range={range} list={open} />}
    </AnalyticsFrame>
  );
}

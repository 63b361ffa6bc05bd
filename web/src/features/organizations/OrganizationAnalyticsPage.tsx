// /organization/analytics (spec part 2 §2 "Organization analytics"): a date range (default the current
// month, §9); cards for sign-ups, active customers and cancelled customers with their counts and one list
// expanded at a time (last used and used words; the cancel reason for cancelled — §4 "Analytics expand
// panel: new, active, cancelled, or closed"); 'purchases by product' (name, purchases, total paid); a donut
// of each product's share of the income; a monthly area chart of sign-ups and income (YYYY-MM rows).
import { AreaChart } from '@mantine/charts';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Organization, OrganizationAnalytics, OrganizationAnalyticsCustomer } from '@pluma/common/organizations';
import type { DateRange } from '@pluma/common/rules/date-range';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/instance';
import { LabelledTd, ListTable } from '../../ui/ListTable';
import { formatDateTime } from '../admin-users';
import { AnalyticsFrame, FigureCard, formatNumber, Loaded, ShareBreakdown, useMonthRange } from '../analytics';
import { WithActiveOrganization } from './ActiveOrganization';
import { ORGANIZATIONS_KEY } from './organizations-api';

const CARDS = ['signups', 'active', 'cancelled'] as const;
type CardKind = (typeof CARDS)[number];

export default function OrganizationAnalyticsPage() {
  return <WithActiveOrganization>{(organization) => <Analytics organization={organization} />}</WithActiveOrganization>;
}

function useOrganizationAnalytics(organizationId: number, range: DateRange) {
  return useQuery({
    queryKey: [...ORGANIZATIONS_KEY, 'analytics', organizationId, range],
    queryFn: () => api.get<OrganizationAnalytics>(`/organizations/${organizationId}/analytics`, { query: { ...range, organization_id: organizationId } }),
  });
}

function Analytics({ organization }: { organization: Organization }) {
  const { t } = useTranslation('organizations');
  const [range, setRange] = useMonthRange();
  const analytics = useOrganizationAnalytics(organization.organization_id, range);
  if (!organization.abilities.view_analytics)
    return (
      <Alert color="yellow" data-testid="analytics-refused">
        {t('analytics.notAllowed')}
      </Alert>
    );
  return (
    <AnalyticsFrame title={t('analytics.title')} description={organization.name} range={range} onRange={setRange} testId="organization-analytics">
      <Loaded query={analytics} height={320}>
        {(data) => <Figures data={data} />}
      </Loaded>
    </AnalyticsFrame>
  );
}

function Figures({ data }: { data: OrganizationAnalytics }) {
  const { t, i18n } = useTranslation('organizations');
  const lang = i18n.language;
  const [expanded, setExpanded] = useState<CardKind | null>(null);
  const products = data.products.map((p) => ({ key: p.product_id ?? 'none', label: p.name ?? t('analytics.unknownProduct'), count: p.purchases, total: p.total_paid }));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {CARDS.map((kind) => (
          <Card key={kind} withBorder radius="lg" padding="lg" data-testid={`analytics-card-${kind}`}>
            <Text size="sm" c="dimmed">
              {t(`analytics.${kind}`)}
            </Text>
            <Group justify="space-between" align="flex-end">
              <Text fz={28} fw={700} data-testid={`analytics-count-${kind}`}>
                {formatNumber(data[kind].count, lang)}
              </Text>
              <Button
                size="compact-sm"
                variant="subtle"
                aria-expanded={expanded === kind}
                onClick={() => setExpanded(expanded === kind ? null : kind)}
                disabled={data[kind].count === 0}
                data-testid={`analytics-expand-${kind}`}
              >
                {expanded === kind ? t('analytics.hide') : t('analytics.show')}
              </Button>
            </Group>
          </Card>
        ))}
      </SimpleGrid>
      {expanded && <CustomerList kind={expanded} users={data[expanded].users} />}
      <FigureCard title={t('analytics.byProduct')}>
        <ShareBreakdown
          parts={products}
          total={data.total_paid}
          headers={[t('analytics.product'), t('analytics.purchases'), t('analytics.totalPaid')]}
          chartLabel={t('analytics.incomeShare')}
          emptyText={t('analytics.noData')}
          testIds={{ table: 'analytics-products', donut: 'analytics-donut', empty: 'analytics-products-empty' }}
        />
      </FigureCard>
      <FigureCard title={t('analytics.monthly')}>
        <AreaChart
          h={260}
          data={data.months.map((m) => ({ month: m.month, signups: m.signups, income: m.total_paid }))}
          dataKey="month"
          series={[
            { name: 'signups', label: t('analytics.signups'), color: 'violet.6' },
            { name: 'income', label: t('analytics.income'), color: 'teal.6' },
          ]}
          withLegend
          role="img"
          aria-label={t('analytics.monthly')}
          data-testid="analytics-monthly"
        />
      </FigureCard>
    </Stack>
  );
}

function CustomerList({ kind, users }: { kind: CardKind; users: OrganizationAnalyticsCustomer[] }) {
  const { t, i18n } = useTranslation('organizations');
  const lang = i18n.language;
  return (
    <Card withBorder radius="lg" padding="lg" data-testid={`analytics-list-${kind}`}>
      <Title order={2} fz="md" mb="sm">
        {t(`analytics.${kind}`)}
      </Title>
      <ListTable
        minWidth={560}
        stacked
        head={
          <>
            <Table.Th>{t('members.columns.name')}</Table.Th>
            <Table.Th>{t('members.columns.email')}</Table.Th>
            <Table.Th>{t('members.columns.lastUsed')}</Table.Th>
            <Table.Th>{t('analytics.usedWords')}</Table.Th>
            {kind === 'cancelled' && <Table.Th>{t('analytics.cancelReason')}</Table.Th>}
          </>
        }
      >
        {users.map((u) => (
          <Table.Tr key={u.user_id} data-testid="analytics-customer">
            <LabelledTd label={t('members.columns.name')}>{`${u.name} ${u.last_name}`.trim() || u.email}</LabelledTd>
            <LabelledTd label={t('members.columns.email')}>{u.email}</LabelledTd>
            <LabelledTd label={t('members.columns.lastUsed')}>{u.last_used ? formatDateTime(u.last_used, lang) : t('members.notUsed')}</LabelledTd>
            <LabelledTd label={t('analytics.usedWords')}>{formatNumber(u.used_words, lang)}</LabelledTd>
            {kind === 'cancelled' && <LabelledTd label={t('analytics.cancelReason')}>{u.cancel_reason ?? '—'}</LabelledTd>}
          </Table.Tr>
        ))}
      </ListTable>
    </Card>
  );
}

// /admin/analytics/income (spec part 1 §2 "Analytics income"): total income, total payments, a table per
// payment method (name, payments, total) and a donut chart. The totals are net of the payments of purchases
// no longer bought (revoked, …); a note says so and gives the gross when it differs. Beyond the spec, the AI usage of the same
// dates beside it (words charged per model and per day, from the credits ledger), so an operator sees
// what the income pays for.
import { BarChart } from './charts';
import { Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { AiUsageAnalytics, IncomeAnalytics } from '@pluma/common/analytics';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { useAiUsage, useIncome } from './analytics-api';
import { chartColor, formatMoney, formatNumber } from './analytics-view';
import { AnalyticsFrame, Loaded, useMonthRange } from './AnalyticsFrame';
import { FigureCard } from './FigureCard';
import { ShareBreakdown } from './ShareBreakdown';

function Stat({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card withBorder radius="lg" padding="lg">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}

function IncomeFigures({ income, lang, t }: { income: IncomeAnalytics; lang: string; t: TFunction }) {
  const methods = income.payment_methods.map((m) => ({ key: m.payment_method_id ?? 'none', label: m.name ? t(`income.methodNames.${m.name}`, { defaultValue: m.name }) : t('income.unknownMethod'), count: m.payments, total: m.total }));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Stat label={t('income.total')} value={formatMoney(income.income)} testId="income-total" />
        <Stat label={t('income.payments')} value={formatNumber(income.payments, lang)} testId="income-payments" />
      </SimpleGrid>
      {/* Net vs gross (docs/decisions.md "Analytics"): why this total may differ from the Products page's. */}
      <Text size="sm" c="dimmed" data-testid="income-note">
        {t('income.note')}
        {income.excluded.count > 0 &&
          ` ${t('income.gross', { gross: formatMoney(income.gross_income), excluded: formatMoney(income.excluded.total), payments: formatNumber(income.excluded.count, lang), count: income.excluded.count })}`}
      </Text>
      <FigureCard title={t('income.methods')}>
        <ShareBreakdown
          parts={methods}
          total={income.income}
          headers={[t('income.method'), t('income.methodPayments'), t('income.methodTotal')]}
          chartLabel={t('income.chart')}
          emptyText={t('noData')}
          testIds={{ table: 'methods-table', donut: 'income-donut', empty: 'income-empty' }}
        />
      </FigureCard>
    </Stack>
  );
}

function modelLabel(model: string, t: TFunction) {
  if (model === 'enhance') return t('usage.enhance');
  if (model === 'unknown') return t('usage.unknown');
  return model;
}

/** Web searches of the range (issue 32): in all, failed and pages read, per provider, and a bar per day. */
function SearchFigures({ searches, lang, t }: { searches: AiUsageAnalytics['searches']; lang: string; t: TFunction }) {
  if (searches.searches === 0) return null;
  const providerLabel = (provider: string) => t(`usage.providers.${provider}`, { defaultValue: provider });
  return (
    <Stack gap="sm" data-testid="usage-searches">
      <Title order={3} fz="md">
        {t('usage.searchesTitle')}
      </Title>
      <Group gap="xl">
        <Text data-testid="usage-searches-total">
          {t('usage.searches')}: <b>{formatNumber(searches.searches, lang)}</b>
        </Text>
        <Text data-testid="usage-searches-failed">
          {t('usage.searchesFailed')}: <b>{formatNumber(searches.failed, lang)}</b>
        </Text>
        <Text data-testid="usage-searches-pages">
          {t('usage.pagesRead')}: <b>{formatNumber(searches.pages_read, lang)}</b>
        </Text>
      </Group>
      <Table.ScrollContainer minWidth={360}>
        <Table data-testid="usage-searches-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('usage.provider')}</Table.Th>
              <Table.Th>{t('usage.searches')}</Table.Th>
              <Table.Th>{t('usage.searchesFailed')}</Table.Th>
              <Table.Th>{t('usage.pagesRead')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {searches.providers.map((p) => (
              <Table.Tr key={p.provider}>
                <Table.Td>{providerLabel(p.provider)}</Table.Td>
                <Table.Td>{formatNumber(p.searches, lang)}</Table.Td>
                <Table.Td>{formatNumber(p.failed, lang)}</Table.Td>
                <Table.Td>{formatNumber(p.pages_read, lang)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <BarChart
        h={180}
        data={searches.days.map((d) => ({ date: d.date, ok: d.searches - d.failed, failed: d.failed }))}
        dataKey="date"
        type="stacked"
        series={[
          { name: 'ok', label: t('usage.searchesOk'), color: chartColor(0) },
          { name: 'failed', label: t('usage.searchesFailed'), color: chartColor(1) },
        ]}
        aria-label={t('usage.searchesPerDay')}
        role="img"
        data-testid="usage-searches-chart"
      />
    </Stack>
  );
}

function UsageFigures({ usage, income, lang, t }: { usage: AiUsageAnalytics; income: number | null; lang: string; t: TFunction }) {
  if (usage.models.length === 0) {
    return (
      <Stack gap="md">
        <Text c="dimmed" data-testid="usage-empty">
          {t('usage.none')}
        </Text>
        <SearchFigures searches={usage.searches} lang={lang} t={t} />
      </Stack>
    );
  }
  const models = usage.models.map((m) => m.model);
  // One bar per day, stacked by model.
  const days = [...new Set(usage.days.map((d) => d.date))].map((date) => {
    const entry: Record<string, string | number> = { date };
    for (const d of usage.days.filter((day) => day.date === date)) entry[d.model] = d.words;
    return entry;
  });
  return (
    <Stack gap="md">
      <Group gap="xl">
        <Text data-testid="usage-words">
          {t('usage.words')}: <b>{formatNumber(usage.words, lang)}</b>
        </Text>
        {income !== null && income > 0 && (
          <Text data-testid="usage-per-dollar">
            {t('usage.wordsPerPayment')}: <b>{formatNumber(Math.round(usage.words / income), lang)}</b>
          </Text>
        )}
      </Group>
      <Table.ScrollContainer minWidth={360}>
        <Table data-testid="usage-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('usage.model')}</Table.Th>
              <Table.Th>{t('usage.words')}</Table.Th>
              <Table.Th>{t('usage.messages')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {usage.models.map((m) => (
              <Table.Tr key={m.model}>
                <Table.Td>{modelLabel(m.model, t)}</Table.Td>
                <Table.Td>{formatNumber(m.words, lang)}</Table.Td>
                <Table.Td>{formatNumber(m.messages, lang)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <BarChart
        h={240}
        data={days}
        dataKey="date"
        type="stacked"
        series={models.map((model, i) => ({ name: model, label: modelLabel(model, t), color: chartColor(i) }))}
        aria-label={t('usage.perDay')}
        role="img"
        data-testid="usage-chart"
      />
      <SearchFigures searches={usage.searches} lang={lang} t={t} />
    </Stack>
  );
}

export default function IncomePage() {
  const { t, i18n } = useTranslation('analytics');
  const [range, setRange] = useMonthRange();
  const income = useIncome(range);
  const usage = useAiUsage(range);
  return (
    <AnalyticsFrame title={t('income.title')} description={t('income.description')} range={range} onRange={setRange} testId="analytics-income">
      <Loaded query={income}>{(data) => <IncomeFigures income={data} lang={i18n.language} t={t} />}</Loaded>
      <Card withBorder radius="lg" padding="lg" component="section" aria-label={t('usage.title')} data-testid="usage-section">
        <Title order={2} fz="lg">
          {t('usage.title')}
        </Title>
        <Text size="sm" c="dimmed" mb="md">
          {t('usage.description')}
        </Text>
        <Loaded query={usage}>{(data) => <UsageFigures usage={data} income={income.data?.income ?? null} lang={i18n.language} t={t} />}</Loaded>
      </Card>
    </AnalyticsFrame>
  );
}

// /admin/analytics/products (spec part 1 §2 "Analytics products"): purchases by product (name, purchases,
// total) and a donut chart of the income, each slice the product's share of the total.
import { DonutChart } from './charts';
import { Card, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { PurchasesAnalytics } from '@pluma/common/analytics';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { usePurchasesByProduct } from './analytics-api';
import { chartColor, formatMoney, formatNumber, sharePercent } from './analytics-view';
import { AnalyticsFrame, Loaded, useMonthRange } from './AnalyticsFrame';

function ProductFigures({ data, lang, t }: { data: PurchasesAnalytics; lang: string; t: TFunction }) {
  if (data.products.length === 0) {
    return (
      <Text c="dimmed" data-testid="products-empty">
        {t('noData')}
      </Text>
    );
  }
  const products = data.products.map((p, i) => ({ ...p, label: p.name ?? t('products.noProduct'), color: chartColor(i) }));
  return (
    <Card withBorder radius="lg" padding="lg">
      <Text data-testid="products-totals">
        {t('products.totals', { purchases: formatNumber(data.purchases, lang), total: formatMoney(data.total) })}
      </Text>
      {/* Which purchases count, and how this total relates to the Income page's (docs/decisions.md "Analytics"). */}
      <Text size="sm" c="dimmed" mb="md" data-testid="products-note">
        {t('products.note')}
        {data.revoked.count > 0 && ` ${t('products.revoked', { purchases: formatNumber(data.revoked.count, lang), total: formatMoney(data.revoked.total), count: data.revoked.count })}`}
      </Text>
      <Group align="center" gap="xl" wrap="wrap">
        <Table.ScrollContainer minWidth={420} style={{ flex: 1 }}>
          <Table data-testid="products-table">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('products.product')}</Table.Th>
                <Table.Th>{t('products.purchases')}</Table.Th>
                <Table.Th>{t('products.total')}</Table.Th>
                <Table.Th>{t('products.share')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {products.map((p) => (
                <Table.Tr key={p.product_id ?? 'none'}>
                  <Table.Td>{p.label}</Table.Td>
                  <Table.Td>{formatNumber(p.purchases, lang)}</Table.Td>
                  <Table.Td>{formatMoney(p.total)}</Table.Td>
                  <Table.Td>{sharePercent(p.total, data.total, lang)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Stack align="center">
          <Title order={2} fz="md">
            {t('products.chart')}
          </Title>
          <DonutChart
            data={products.map((p) => ({ name: p.label, value: p.total, color: p.color }))}
            valueFormatter={formatMoney}
            withTooltip
            tooltipDataSource="segment"
            aria-label={t('products.chart')}
            role="img"
            data-testid="products-donut"
          />
        </Stack>
      </Group>
    </Card>
  );
}

export default function ProductsPage() {
  const { t, i18n } = useTranslation('analytics');
  const [range, setRange] = useMonthRange();
  const purchases = usePurchasesByProduct(range);
  return (
    <AnalyticsFrame title={t('products.title')} description={t('products.description')} range={range} onRange={setRange} testId="analytics-products">
      <Loaded query={purchases}>{(data) => <ProductFigures data={data} lang={i18n.language} t={t} />}</Loaded>
    </AnalyticsFrame>
  );
}

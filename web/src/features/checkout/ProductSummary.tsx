// The order summary (spec part 1 §2 Checkout): the product, its price as the pricing page shows it (USD,
// thousands separators, 2 decimals, sale price honoured), the subscription period and trial, and — with
// a discount applied — the discount and the new total, from common's discounted-price rule (§5), which
// is exactly what the server charges.
import { Badge, Card, Divider, Group, List, Stack, Text, Title } from '@mantine/core';
import { basePriceCents, centsToDollars } from '@pluma/common/rules/discounted-price';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../platform/words';
import { formatUsd, productText } from '../pricing';
import type { CheckoutProduct, DiscountLookup } from './checkout-api';
import { hasTrial } from './checkout-pricing';

interface ProductSummaryProps {
  product: CheckoutProduct;
  discount: DiscountLookup | null;
  /** Under the total: the discount code box, once signed in. */
  children?: React.ReactNode;
}

export function ProductSummary({ product, discount, children }: ProductSummaryProps) {
  const { t, i18n } = useTranslation('checkout');
  const { t: tApp } = useTranslation();
  const name = productText(product, 'name', tApp);
  const summary = productText(product, 'short_description', tApp) || productText(product, 'description', tApp);
  const baseCents = basePriceCents(product);
  const totalCents = discount ? discount.discounted_price_cents : baseCents;
  const onSale = product.sale_price !== null && product.sale_price < product.price;
  const trial = hasTrial(product);
  const interval = product.subscription_interval ?? 1;
  const period = (product.subscription_period ?? 'month') as 'day' | 'month' | 'year';
  const words =
    product.word_amount === null ? t('summary.unlimitedWords') : t('summary.words', { formatted: formatNumber(product.word_amount, i18n.language) });

  return (
    <Card withBorder radius="lg" padding="xl" data-testid="product-summary">
      <Stack gap="md">
        <Text size="xs" tt="uppercase" fw={700} c="var(--pluma-muted)">
          {t('summary.heading')}
        </Text>
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} fz="h3" data-testid="product-name">
            {name}
          </Title>
          {trial && (
            <Badge variant="light" color="green">
              {t('summary.trial', { count: product.free_trial_length ?? 0 })}
            </Badge>
          )}
        </Group>
        {summary && (
          <Text size="sm" c="var(--pluma-muted)">
            {summary}
          </Text>
        )}
        <List spacing={6} size="sm" icon={<IconCheck size={16} aria-hidden />}>
          <List.Item>{words}</List.Item>
          <List.Item>
            {product.is_subscription ? t('summary.every', { period: t(`summary.period.${period}`, { count: interval }) }) : t('summary.oneTime')}
          </List.Item>
          {!product.is_subscription && product.expiration_days ? <List.Item>{t('summary.accessDays', { count: product.expiration_days })}</List.Item> : null}
        </List>
        <Divider />
        <Stack gap={6} component="dl" m={0}>
          <Line label={t('summary.price')}>
            {onSale && (
              <Text span size="sm" c="var(--pluma-muted)" td="line-through" mr={8} aria-label={t('summary.regularPrice', { price: formatUsd(product.price) })}>
                {formatUsd(product.price)}
              </Text>
            )}
            <span data-testid="summary-price">{formatUsd(centsToDollars(baseCents))}</span>
          </Line>
          {discount && (
            <Line label={t('summary.discount', { code: discount.code })}>
              <Text span fw={600} data-testid="summary-discount">
                −{formatUsd(centsToDollars(baseCents - totalCents))}
              </Text>
            </Line>
          )}
          <Line label={trial ? t('summary.dueToday') : t('summary.total')} strong>
            <span data-testid="summary-total">{formatUsd(trial ? 0 : centsToDollars(totalCents))} USD</span>
          </Line>
          {trial && (
            <Text size="xs" c="var(--pluma-muted)" ta="right">
              {t('summary.afterTrial', { price: formatUsd(centsToDollars(totalCents)) })}
            </Text>
          )}
        </Stack>
        {children && <Divider />}
        {children}
      </Stack>
    </Card>
  );
}

function Line({ label, strong, children }: { label: string; strong?: boolean; children: React.ReactNode }) {
  // The total is set apart by a rule of its own (a separator may not sit between a list's terms).
  const rule = strong ? { borderTop: '1px solid var(--mantine-color-default-border)', paddingTop: 10, marginTop: 4 } : undefined;
  return (
    <Group justify="space-between" wrap="nowrap" style={rule}>
      <Text component="dt" size="sm" fw={strong ? 700 : 400}>
        {label}
      </Text>
      <Text component="dd" m={0} fw={strong ? 800 : 500} fz={strong ? 'lg' : 'sm'}>
        {children}
      </Text>
    </Group>
  );
}

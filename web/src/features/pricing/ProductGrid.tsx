// Grid of product cards (spec part 1 §2 Pricing): price per month in USD and an action to buy.
import { Badge, Button, Card, EmptyState, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconPackageOff, IconRefresh } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatNumber } from '../../platform/words';
import { PageLoader } from '../../ui/PageLoader';
import { formatUsd, monthlyPrice } from './price';
import { productText } from './product-text';
import { useAvailableProducts, type AvailableProduct } from './products-api';

export function ProductGrid({ currentProductId }: { currentProductId?: number | null }) {
  const { t } = useTranslation();
  const products = useAvailableProducts();
  if (products.isPending) return <PageLoader />;
  if (products.isError) {
    return (
      <EmptyState
        icon={<IconRefresh size={28} aria-hidden />}
        title={t('pricing.loadFailed')}
        data-testid="products-error"
      >
        <EmptyState.Actions>
          <Button variant="default" onClick={() => void products.refetch()}>
            {t('common.retry')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  }
  if (products.data.length === 0) {
    return (
      <EmptyState
        icon={<IconPackageOff size={28} aria-hidden />}
        withIndicatorBackground
        title={t('pricing.empty')}
        description={t('pricing.emptyHint')}
        py={48}
        data-testid="products-empty"
      />
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" data-testid="product-grid">
      {products.data.map((product) => (
        <ProductCard key={product.product_id} product={product} current={product.product_id === currentProductId} />
      ))}
    </SimpleGrid>
  );
}

function ProductCard({ product, current }: { product: AvailableProduct; current: boolean }) {
  const { t, i18n } = useTranslation();
  const onSale = product.sale_price !== null && product.sale_price < product.price;
  const words =
    product.word_amount === null
      ? t('pricing.unlimitedWords')
      : t('pricing.words', { count: product.word_amount, formatted: formatNumber(product.word_amount, i18n.language) });
  const regular = formatUsd(product.price);
  const name = productText(product, 'name', t);
  const summary = productText(product, 'short_description', t) || productText(product, 'description', t);
  return (
    <Card withBorder radius="lg" padding="xl" data-testid="product-card">
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={2} fz="lg">
            {name}
          </Title>
          {current && <Badge variant="light">{t('pricing.currentPlan')}</Badge>}
        </Group>
        {summary && (
          <Text size="sm" c="var(--pluma-muted)" lineClamp={3}>
            {summary}
          </Text>
        )}
        <div>
          <Group gap={6} align="baseline">
            <Text fz={32} fw={800} lh={1}>
              {formatUsd(monthlyPrice(product))}
            </Text>
            <Text size="sm" c="var(--pluma-muted)">
              USD {product.is_subscription ? t('pricing.perMonth') : t('pricing.oneTime')}
            </Text>
          </Group>
          {onSale && (
            <Text size="sm" c="var(--pluma-muted)" td="line-through" aria-label={t('pricing.regularPrice', { price: regular })}>
              {regular}
            </Text>
          )}
        </div>
        <List spacing={6} size="sm" icon={<IconCheck size={16} aria-hidden />} style={{ flex: 1 }}>
          <List.Item>{words}</List.Item>
          {product.free_trial_length ? <List.Item>{t('pricing.freeTrial', { count: product.free_trial_length })}</List.Item> : null}
        </List>
        <Button component={Link} to={`/checkout/${product.product_id}`} fullWidth size="md" aria-label={t('pricing.buyNamed', { name })}>
          {t('pricing.buy')}
        </Button>
      </Stack>
    </Card>
  );
}

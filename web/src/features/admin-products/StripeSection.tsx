// The product form's Stripe section (spec part 1 §2 "a Stripe section (loads the provider's products, then
// prices)"; §3 "Provider price": dollars with currency, the interval or 'One-Time', and the id).
import { Alert, Button, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { localizeServerText } from '../../ui/server-text';
import { stripePriceLabel, type StripePrice } from './product-form';
import { useStripePrices, useStripeProducts } from './products-api';

interface StripeSectionProps {
  productId: string;
  priceId: string;
  onProduct: (stripeProductId: string) => void;
  onPrice: (price: StripePrice | null) => void;
}

/** Stripe unreachable (the server answers 502) or no answer at all: the screen's own words, not the checkout's error text. */
const unreachable = (error: unknown) => !(error instanceof ApiError) || error.status >= 500;
const problemText = (error: unknown, fallback: string, unreachableText: string) =>
  unreachable(error) ? unreachableText : error instanceof ApiError && error.body?.message ? localizeServerText(error.body.message) : fallback;

export function StripeSection({ productId, priceId, onProduct, onPrice }: StripeSectionProps) {
  const { t } = useTranslation('admin-products');
  const products = useStripeProducts();
  const prices = useStripePrices(productId);

  if (products.isError) {
    return (
      <Alert color="yellow" title={t('form.stripe.unavailable')} data-testid="stripe-unavailable">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{problemText(products.error, t('form.stripe.loadError'), t('form.stripe.unreachable'))}</Text>
          <Button size="xs" variant="default" onClick={() => void products.refetch()} loading={products.isFetching} data-testid="stripe-retry">
            {t('form.stripe.retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  const productOptions = (products.data ?? []).map((p) => ({ value: p.id, label: `${p.name} · ${p.id}` }));
  // A saved id Stripe no longer lists stays selectable, so opening the form does not drop it.
  if (productId && !productOptions.some((o) => o.value === productId)) productOptions.push({ value: productId, label: productId });
  const priceList = prices.data ?? [];
  const priceOptions = priceList.map((p) => ({ value: p.id, label: stripePriceLabel(p, t('form.stripe.oneTime')) }));
  if (priceId && !priceOptions.some((o) => o.value === priceId)) priceOptions.push({ value: priceId, label: priceId });

  return (
    <Stack gap="sm">
      <Select
        label={t('form.stripe.product')}
        placeholder={products.isPending ? t('loading') : t('form.stripe.pickProduct')}
        data={productOptions}
        value={productId || null}
        onChange={(value) => onProduct(value ?? '')}
        searchable
        clearable
        disabled={products.isPending}
        data-testid="stripe-product"
      />
      <Select
        label={t('form.stripe.price')}
        placeholder={prices.isFetching ? t('loading') : t('form.stripe.pickPrice')}
        data={priceOptions}
        value={priceId || null}
        onChange={(value) => onPrice(priceList.find((p) => p.id === value) ?? null)}
        clearable
        disabled={!productId || prices.isFetching}
        error={prices.isError ? problemText(prices.error, t('form.stripe.loadError'), t('form.stripe.unreachable')) : undefined}
        data-testid="stripe-price"
      />
    </Stack>
  );
}

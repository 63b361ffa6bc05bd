// /pricing (spec part 1 §2): one card per available product.
import { Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/session/session-context';
import { PageHeader } from '../../ui/PageHeader';
import { ProductGrid } from './ProductGrid';

export default function PricingPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Stack gap="lg" data-testid="pricing-page">
      <PageHeader title={t('pricing.title')} description={t('pricing.description')} />
      <ProductGrid currentProductId={session.user?.purchase?.product_id ?? null} />
    </Stack>
  );
}

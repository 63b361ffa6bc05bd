// /checkout/{product_id} (spec part 1 §2 Checkout): product summary, discount code box, saved cards,
// card form and Pay Now; a signed-out visitor signs in or up here (payment form and discount box hidden
// until then) and stays on the page. §4: the same active product → told and sent home; a downgrade →
// confirmed before paying, worded from the two plans' prices (upgrade, lower plan or change). On success: /thankyou/{purchase_id}.
import { Anchor, Button, Grid, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconPackageOff } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useSession } from '../../platform/session/session-context';
import { PageLoader } from '../../ui/PageLoader';
import { usePageTitle } from '../../ui/use-page-title';
import { PayPalCheckoutButton } from '../paypal';
import { productText } from '../pricing';
import { useCheckoutConfig, useCheckoutProduct, type DiscountLookup } from './checkout-api';
import { activePurchaseOf, checkoutVerdict, planChangeKind } from './checkout-rules';
import { CheckoutAuth } from './CheckoutAuth';
import { CheckoutLayout } from './CheckoutLayout';
import { DiscountBox } from './DiscountBox';
import { PaymentSection } from './PaymentSection';
import { ProductSummary } from './ProductSummary';

export default function CheckoutPage() {
  return (
    <CheckoutLayout>
      <Checkout />
    </CheckoutLayout>
  );
}

function Checkout() {
  const { t } = useTranslation('checkout');
  const { t: tApp } = useTranslation();
  const navigate = useNavigate();
  const session = useSession();
  const params = useParams();
  const productId = Number(params.productId);
  const signedIn = session.status === 'signedIn';
  const user = session.user;
  const product = useCheckoutProduct(productId, signedIn);
  const config = useCheckoutConfig();
  const [paying, setPaying] = useState(false);
  // Just paid: the current user's purchase is about to change; the rule below was checked on arrival.
  const [paid, setPaid] = useState(false);
  usePageTitle(t('title'));

  // A discount belongs to one product and one customer.
  const scope = `${productId}:${user?.user_id ?? ''}`;
  const [applied, setApplied] = useState<{ scope: string; discount: DiscountLookup | null } | null>(null);
  const discount = applied?.scope === scope ? applied.discount : null;
  const setDiscount = (next: DiscountLookup | null) => setApplied({ scope, discount: next });

  const verdict = product.data ? checkoutVerdict(user, product.data.product_id) : 'buy';
  const current = user ? activePurchaseOf(user) : null;
  // The current plan's price words the confirmation (upgrade, lower plan or change); 0 = not needed.
  const currentProduct = useCheckoutProduct(verdict === 'downgrade' ? (current?.product_id ?? 0) : 0, signedIn);
  useEffect(() => {
    if (verdict !== 'alreadyOwned' || paid) return;
    // spec part 1 §4: an active purchase of the same product → the user is told and sent home.
    notifications.show({ id: 'checkout-already-owned', message: t('alreadyOwned'), color: 'blue', autoClose: 5000, 'data-testid': 'already-owned' });
    navigate('/', { replace: true });
  }, [verdict, paid, navigate, t]);

  if (session.status === 'unknown' || product.isPending || config.isPending) return <PageLoader />;

  const invalidId = !Number.isInteger(productId) || productId <= 0;
  if (invalidId || (product.error instanceof ApiError && product.error.status === 404)) {
    return (
      <Stack align="center" gap="md" py={48} data-testid="product-not-found">
        <IconPackageOff size={40} aria-hidden />
        <Text fw={600}>{t('errors.productNotFound')}</Text>
        <Button component={Link} to="/pricing" variant="default" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {t('back')}
        </Button>
      </Stack>
    );
  }
  if (product.isError || config.isError || !product.data || !config.data) {
    return (
      <Stack align="center" gap="md" py={48} data-testid="checkout-load-failed">
        <Text fw={600}>{t('loadFailed')}</Text>
        <Button
          variant="default"
          onClick={() => {
            void product.refetch();
            void config.refetch();
          }}
        >
          {tApp('common.retry')}
        </Button>
      </Stack>
    );
  }
  if (verdict === 'alreadyOwned' && !paid) return <PageLoader />;

  const onPaid = (purchaseId: number) => {
    setPaid(true);
    navigate(`/thankyou/${purchaseId}`);
  };
  const planChange =
    verdict === 'downgrade'
      ? {
          from: current?.product ? productText({ name: current.product.name }, 'name', tApp) : t('downgrade.currentPlan'),
          kind: planChangeKind(currentProduct.data, product.data),
        }
      : null;

  return (
    <Stack gap="lg" data-testid="checkout-page">
      <div>
        <Anchor component={Link} to="/pricing" size="sm">
          <IconArrowLeft size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
          {t('back')}
        </Anchor>
        <Title order={1} mt="xs">
          {t('title')}
        </Title>
      </div>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 5 }} order={{ base: 1, md: 2 }}>
          <ProductSummary product={product.data} discount={discount}>
            {signedIn && <DiscountBox productId={product.data.product_id} discount={discount} onChange={setDiscount} disabled={paying} />}
          </ProductSummary>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 7 }} order={{ base: 2, md: 1 }}>
          {signedIn ? (
            <PaymentSection
              product={product.data}
              discount={discount}
              config={config.data}
              planChange={planChange}
              onBusyChange={setPaying}
              onPaid={onPaid}
              alternatives={
                // An organization's product is paid into its own Stripe account only; PayPal pays the operator.
                product.data.organization_id !== null
                  ? undefined
                  : ({ onError }) => (
                      // PayPal (features/paypal): renders nothing when PayPal is not configured.
                      <PayPalCheckoutButton productId={product.data.product_id} discountCode={discount?.code} onPaid={onPaid} onError={onError} />
                    )
              }
            />
          ) : (
            <CheckoutAuth />
          )}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

// Payment (spec part 1 §2 Checkout, §5 "The card pay button is disabled while the card field is empty or
// a payment is in progress"): Stripe's Payment Element (Stripe.js from the configured URL,
// stripe-loader.ts) with the customer's saved cards redisplayed by Stripe through a customer session
// (POST /checkout/customer_session) next to a new card and its "save my card" box, the Pay Now button,
// the downgrade confirmation (§4) and every error text of §8. On success: /thankyou/{purchase_id}.
import { Alert, Button, Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { centsToDollars } from '@pluma/common/rules/discounted-price';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { Stripe, StripeElementsOptions } from '@stripe/stripe-js';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/session/session-context';
import { ErrorAlert } from '../../ui/ErrorAlert';
import { Modal } from '../../ui/Modal';
import { formatUsd, productText } from '../pricing';
import { useCustomerSession, type CheckoutConfigResponse, type CheckoutProduct, type DiscountLookup } from './checkout-api';
import { checkoutTextOf, purchaseErrorText, StripeConfirmError, type CheckoutText } from './checkout-errors';
import { chargeCents, elementsMode, hasTrial, needsNoCard } from './checkout-pricing';
import type { PlanChangeKind } from './checkout-rules';
import { payNothing, payWithPaymentElement } from './pay';
import { loadStripeFrom } from './stripe-loader';

export interface PaymentSectionProps {
  product: CheckoutProduct;
  discount: DiscountLookup | null;
  config: CheckoutConfigResponse;
  /**
   * Set when buying this product must be confirmed (spec part 1 §4 "downgrade"): the current plan's name and
   * how the prices compare, which words the confirmation.
   */
  planChange: { from: string; kind: PlanChangeKind } | null;
  onPaid: (purchaseId: number) => void;
  /** Paying: the discount box is locked meanwhile. */
  onBusyChange?: (busy: boolean) => void;
  /** Under the card form: other ways to pay (PayPal), whose failures show with the card's. */
  alternatives?: (handlers: { onError: (error: unknown) => void }) => ReactNode;
}

export function PaymentSection(props: PaymentSectionProps) {
  const { t, i18n } = useTranslation('checkout');
  const { t: tApp } = useTranslation();
  const [error, setError] = useState<CheckoutText | null>(null);
  // spec part 1 §4: a downgrade is confirmed once before paying, by card or by PayPal.
  const [downgradeAccepted, setDowngradeAccepted] = useState(false);
  const [confirmingDowngrade, setConfirmingDowngrade] = useState(false);
  const afterDowngrade = useRef<(() => void) | null>(null);
  const kind = props.planChange?.kind ?? 'change';
  const confirmDowngrade = (then: () => void) => {
    if (props.planChange === null || downgradeAccepted) then();
    else {
      afterDowngrade.current = then;
      setConfirmingDowngrade(true);
    }
  };
  const stripeConfig = props.config.stripe;
  const locale = i18n.language;
  const stripePromise = useMemo<Promise<Stripe> | null>(
    () => (stripeConfig ? loadStripeFrom(stripeConfig.js_url, stripeConfig.publishable_key, locale) : null),
    [stripeConfig, locale],
  );
  const [stripeFailed, setStripeFailed] = useState(false);
  // The saved cards: a customer session of the signed-in customer. If it cannot be had, the Payment
  // Element still takes a new card (nothing to show the customer about it).
  const userId = useSession().user?.user_id ?? null;
  const customerSession = useCustomerSession(Boolean(stripeConfig), userId);
  const customerSessionClientSecret = customerSession.data?.customerSessionClientSecret;
  useEffect(() => {
    let alive = true;
    stripePromise?.catch(() => alive && setStripeFailed(true));
    return () => {
      alive = false;
    };
  }, [stripePromise]);

  const mode = elementsMode(props.product, props.discount);
  const amount = chargeCents(props.product, props.discount);
  const options = useMemo<StripeElementsOptions>(
    () => ({
      // No setupFutureUsage: the customer session's save box decides whether a new card is kept (server
      // payments/customer-session.ts); Stripe refuses it together with payment_method_save_usage.
      ...(mode === 'setup' ? { mode } : { mode, amount }),
      currency: 'usd',
      locale: locale as 'en',
      ...(customerSessionClientSecret ? { customerSessionClientSecret } : {}),
    }),
    [mode, amount, locale, customerSessionClientSecret],
  );

  return (
    <Card withBorder radius="lg" padding="xl" data-testid="payment-section">
      <Stack gap="md">
        <Title order={2} fz="h4">
          {t('payment.heading')}
        </Title>
        {props.config.demo && (
          <Alert color="yellow" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="payments-demo">
            {t('payment.demo')}
          </Alert>
        )}
        {!stripeConfig || !stripePromise ? (
          <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="payments-not-configured">
            {/* An organization's product is paid into its own Stripe account: its keys, or nothing (never the operator's). */}
            {props.product.organization_id !== null ? t('payment.organizationNotConfigured') : t('payment.notConfigured')}
          </Alert>
        ) : stripeFailed ? (
          <Alert color="red" variant="light" data-testid="stripe-failed">
            {t('payment.formFailed')}
          </Alert>
        ) : customerSession.isPending ? (
          // The Elements group is created once with the session's secret (it cannot be added later).
          <Center py="md" role="status" aria-label={t('payment.loadingForm')}>
            <Loader size="sm" />
          </Center>
        ) : (
          // The Elements group: "deferred intent" (mode + amount) — the intent is created when paying.
          <Elements key={customerSessionClientSecret ?? 'no-session'} stripe={stripePromise} options={options}>
            <PayForm {...props} setError={setError} confirmDowngrade={confirmDowngrade} />
          </Elements>
        )}
        <ErrorAlert message={error ? checkoutTextOf(error, t) : null} onClose={() => setError(null)} data-testid="payment-error" />
        {/* ---- Other ways to pay (PayPal): after the downgrade warning, like the card. ---- */}
        {props.alternatives &&
          (props.planChange !== null && !downgradeAccepted ? (
            <Button variant="default" onClick={() => confirmDowngrade(() => undefined)} data-testid="paypal-after-downgrade">
              {t('payment.orPayPal')}
            </Button>
          ) : (
            <Suspense fallback={null}>{props.alternatives({ onError: (failure) => setError(purchaseErrorText(failure)) })}</Suspense>
          ))}
        <Text size="xs" c="var(--pluma-muted)" ta="center">
          <IconLock size={12} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
          {t('secure')}
        </Text>
      </Stack>
      <Modal
        opened={confirmingDowngrade}
        onClose={() => setConfirmingDowngrade(false)}
        title={t(`downgrade.${kind}.title`)}
        onConfirm={() => {
          setConfirmingDowngrade(false);
          setDowngradeAccepted(true);
          afterDowngrade.current?.();
          afterDowngrade.current = null;
        }}
        confirmLabel={t('downgrade.confirm')}
        cancelLabel={t('downgrade.cancel')}
        confirmColor="orange"
        data-testid="downgrade-modal"
      >
        <Text>{t(`downgrade.${kind}.body`, { current: props.planChange?.from ?? t('downgrade.currentPlan'), product: productText(props.product, 'name', tApp) })}</Text>
      </Modal>
    </Card>
  );
}

interface PayFormProps extends PaymentSectionProps {
  setError: (error: CheckoutText | null) => void;
  confirmDowngrade: (then: () => void) => void;
}

function PayForm({ product, discount, onPaid, onBusyChange, setError, confirmDowngrade }: PayFormProps) {
  const { t } = useTranslation('checkout');
  const stripe = useStripe();
  const elements = useElements();
  const [cardComplete, setCardComplete] = useState(false);
  const [elementReady, setElementReady] = useState(false);
  const [paying, setPaying] = useState(false);

  const noCard = needsNoCard(product, discount);

  const setBusy = (busy: boolean) => {
    setPaying(busy);
    onBusyChange?.(busy);
  };

  // A saved card chosen in the Payment Element makes it complete, as a fully typed new card does.
  const ready = noCard || Boolean(stripe && elements && elementReady && cardComplete);
  const disabled = paying || !ready;

  const pay = async () => {
    setBusy(true);
    setError(null);
    const code = discount?.code;
    try {
      let purchaseId: number;
      if (noCard) purchaseId = await payNothing(product.product_id, code);
      else {
        if (!stripe || !elements) return;
        purchaseId = await payWithPaymentElement({ stripe, elements, productId: product.product_id, discountCode: code });
      }
      onPaid(purchaseId);
    } catch (failure) {
      // An incomplete form is shown by the Payment Element itself, under its fields.
      if (!(failure instanceof StripeConfirmError && failure.type === 'validation_error')) setError(purchaseErrorText(failure));
    } finally {
      setBusy(false);
    }
  };

  const onPayClick = () => {
    if (disabled) return;
    // spec part 1 §4: a downgrade asks for confirmation before paying.
    confirmDowngrade(() => void pay());
  };

  const trial = hasTrial(product);
  const total = chargeCents(product, discount);
  const label = trial ? t('payment.startTrial') : `${t('payment.payNow')} · ${formatUsd(centsToDollars(total))}`;

  return (
    <Stack gap="md">
      {noCard ? (
        <Alert color="green" variant="light" data-testid="nothing-to-pay">
          {t('payment.nothingToPay')}
        </Alert>
      ) : (
        <div data-testid="card-form">
          {!elementReady && (
            <Center py="md" role="status" aria-label={t('payment.loadingForm')}>
              <Loader size="sm" />
            </Center>
          )}
          <PaymentElement
            options={{ layout: 'tabs', readOnly: paying }}
            onReady={() => setElementReady(true)}
            onChange={(event) => setCardComplete(event.complete)}
            onLoadError={() => setError({ key: 'payment.formFailed' })}
          />
        </div>
      )}
      <Button size="lg" fullWidth onClick={onPayClick} disabled={disabled} loading={paying} loaderProps={{ 'aria-label': t('payment.paying') }} data-testid="pay-now">
        {label}
      </Button>
    </Stack>
  );
}

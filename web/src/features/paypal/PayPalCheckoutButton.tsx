// The PayPal button of the checkout screen (issue 10 item 4; docs/decisions.md "PayPal checkout"), on
// @paypal/react-paypal-js's v6 entry point (`/sdk-v6`). The environment is chosen explicitly from
// GET /paypal/config (v6 does not infer it from the client id). Renders nothing while the config loads
// or when PayPal is not configured. One-time products: the server creates the order at its own price,
// the buyer approves it in PayPal's window, and POST /checkout/capture fulfils it. Subscriptions: the
// server creates the subscription on the product's plan; PayPal's webhooks activate the purchase, and
// the thank-you page (onPaid) polls it until then. In PAYMENTS_DEMO the config names the emulator's stand-in
// of PayPal's script (js_url), loaded first (demo-script.ts).
import { PayPalOneTimePaymentButton, PayPalProvider, PayPalSubscriptionButton } from '@paypal/react-paypal-js/sdk-v6';
import { Divider, Stack } from '@mantine/core';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { capturePayPalOrder, createPayPalOrder, createPayPalSubscription, usePayPalConfig, usePayPalDemoScript, useProductKind } from './paypal-api';

export interface PayPalCheckoutButtonProps {
  productId: number;
  discountCode?: string;
  onPaid: (purchaseId: number) => void;
  onError: (error: unknown) => void;
}

/** Thrown from createOrder when nothing is left to pay (a 100 % discount): the purchase is already complete. */
class AlreadyPaid extends Error {}

export function PayPalCheckoutButton({ productId, discountCode, onPaid, onError }: PayPalCheckoutButtonProps) {
  const { t, i18n } = useTranslation('paypal');
  const config = usePayPalConfig();
  const kind = useProductKind(productId, !!config.data);
  const demoScript = usePayPalDemoScript(config.data?.js_url);
  // The purchase the current PayPal session is paying (set when the order or subscription is created).
  const purchaseId = useRef<number | null>(null);
  // Our own call's failure is reported at once; PayPal may then report the same rejection through onError.
  const reported = useRef<unknown>(null);

  if (!config.data || !kind.data || (config.data.js_url && !demoScript.isSuccess)) return null;

  const failed = (error: unknown) => {
    if (error instanceof AlreadyPaid || error === reported.current) return;
    reported.current = error;
    onError(error);
  };

  return (
    <Stack gap="xs" data-testid="paypal-checkout">
      <Divider label={t('or')} labelPosition="center" />
      <PayPalProvider
        clientId={config.data.client_id}
        environment={config.data.environment === 'live' ? 'production' : 'sandbox'}
        components={[kind.data === 'subscription' ? 'paypal-subscriptions' : 'paypal-payments']}
        pageType="checkout"
        // PayPal writes its button in this language ("Pagar con PayPal" on Spanish screens).
        locale={i18n.language}
      >
        {kind.data === 'subscription' ? (
          <PayPalSubscriptionButton
            presentationMode="auto"
            createSubscription={async () => {
              try {
                const created = await createPayPalSubscription(productId, discountCode);
                purchaseId.current = created.purchase_id;
                return { subscriptionId: created.subscription_id };
              } catch (error) {
                failed(error);
                throw error;
              }
            }}
            onApprove={async () => {
              if (purchaseId.current != null) onPaid(purchaseId.current);
            }}
            onError={failed}
          />
        ) : (
          <PayPalOneTimePaymentButton
            presentationMode="auto"
            createOrder={async () => {
              let created;
              try {
                created = await createPayPalOrder(productId, discountCode);
              } catch (error) {
                failed(error);
                throw error;
              }
              purchaseId.current = created.purchase_id;
              if (!created.order_id) {
                onPaid(created.purchase_id);
                throw new AlreadyPaid();
              }
              return { orderId: created.order_id };
            }}
            onApprove={async ({ orderId }) => {
              try {
                const captured = await capturePayPalOrder(orderId);
                onPaid(captured.purchase_id);
              } catch (error) {
                failed(error);
              }
            }}
            onError={failed}
          />
        )}
      </PayPalProvider>
    </Stack>
  );
}

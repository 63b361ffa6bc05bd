// /thankyou/{purchase_id} (spec part 1 §2 Thank-you): title, order number, date (DD MMM YYYY HH:mm of
// createdAt), total in dollars plus currency, a status badge and an OK link to /. A spinner shows until
// the purchase loads; it is polled every 2 seconds (§9) until the provider's answer is final.
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck, IconClockHour4 } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useAppConfig } from '../../platform/config/app-config';
import { authPath } from '../../platform/session/paths';
import { useSession } from '../../platform/session/session-context';
import { PageLoader } from '../../ui/PageLoader';
import { usePageTitle } from '../../ui/use-page-title';
import { formatUsd, productText } from '../pricing';
import { fetchPurchase } from './checkout-api';
import { CheckoutLayout } from './CheckoutLayout';
import { formatOrderDate } from './order-date';
import { isPurchaseFailed, isPurchasePending, purchaseBadge, PURCHASE_POLL_MS } from './purchase-status';

export default function ThankYouPage() {
  return (
    <CheckoutLayout size="sm">
      <ThankYou />
    </CheckoutLayout>
  );
}

function ThankYou() {
  const { t, i18n } = useTranslation('checkout');
  const { t: tApp } = useTranslation();
  const config = useAppConfig();
  const session = useSession();
  const params = useParams();
  const purchaseId = Number(params.purchaseId);
  // Stripe's return_url (a payment method that left the page) says how it went: a failure is final here.
  const [search] = useSearchParams();
  const redirectFailed = search.get('redirect_status') === 'failed';
  const valid = Number.isInteger(purchaseId) && purchaseId > 0;
  usePageTitle(t('thankyou.title'));

  const purchase = useQuery({
    queryKey: ['purchases', 'own', purchaseId],
    queryFn: ({ signal }) => fetchPurchase(purchaseId, signal),
    enabled: valid && session.status === 'signedIn',
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 3,
    // spec part 1 §9: every 2 seconds while the payment is being confirmed (or the server unreachable).
    refetchInterval: (query) => {
      const data = query.state.data;
      if (data) return isPurchasePending(data) && !redirectFailed ? PURCHASE_POLL_MS : false;
      return query.state.error instanceof ApiError && query.state.error.status === 404 ? false : PURCHASE_POLL_MS;
    },
    refetchIntervalInBackground: true,
  });

  // Once paid, the shell's words and access come from the current user: load it again, once.
  const reloaded = useRef(false);
  const final = purchase.data && !isPurchasePending(purchase.data) && !isPurchaseFailed(purchase.data);
  const { reloadUser } = session;
  useEffect(() => {
    if (!final || reloaded.current) return;
    reloaded.current = true;
    void reloadUser();
  }, [final, reloadUser]);

  if (session.status === 'signedOut') {
    const next = encodeURIComponent(`/thankyou/${params.purchaseId ?? ''}`);
    return (
      <Stack align="center" gap="md" py="xl">
        <Text>{t('thankyou.notFound')}</Text>
        <Button component={Link} to={`${authPath('login', config.on('landing_enabled'))}?next=${next}`}>
          {t('auth.loginTab')}
        </Button>
      </Stack>
    );
  }
  if (!valid || (purchase.error instanceof ApiError && purchase.error.status === 404)) {
    return (
      <Stack align="center" gap="md" py="xl" data-testid="thankyou-not-found">
        <Text>{t('thankyou.notFound')}</Text>
        <Button component={Link} to="/">
          {t('thankyou.ok')}
        </Button>
      </Stack>
    );
  }
  if (!purchase.data) return <PageLoader />;

  const data = purchase.data;
  const badge = purchaseBadge(redirectFailed && isPurchasePending(data) ? { ...data, status: 'failed' } : data);
  const failed = isPurchaseFailed(data) || (redirectFailed && isPurchasePending(data));
  const pending = isPurchasePending(data) && !failed;
  return (
    <Card withBorder radius="lg" padding="xl" data-testid="thankyou-page">
      <Stack gap="lg" align="stretch">
        <Stack align="center" gap="sm">
          <ThemeIcon size={56} radius="xl" variant="light" color={failed ? 'red' : pending ? 'blue' : 'green'} aria-hidden>
            {failed ? <IconAlertTriangle size={30} /> : pending ? <IconClockHour4 size={30} /> : <IconCircleCheck size={30} />}
          </ThemeIcon>
          <Title order={1} fz="h2" ta="center">
            {t('thankyou.title')}
          </Title>
          <Badge
            size="lg"
            color={badge.color}
            // A dot badge: the text keeps the page's contrast (a light badge's tinted text is below WCAG AA).
            variant="dot"
            data-testid="purchase-status"
            data-status={data.status}
          >
            {t(badge.labelKey, { status: badge.status })}
          </Badge>
        </Stack>
        {pending && (
          <Group gap="xs" justify="center" role="status" aria-live="polite">
            <Loader size="xs" />
            <Text size="sm" c="var(--pluma-muted)">
              {t('thankyou.processing')}
            </Text>
          </Group>
        )}
        {failed && (
          <Alert color="red" variant="light">
            {t('thankyou.failedHint')}
          </Alert>
        )}
        <Stack gap={10} component="dl" m={0}>
          <Row label={t('thankyou.orderNumber')} value={`#${data.purchase_id}`} testId="order-number" />
          <Row label={t('thankyou.date')} value={formatOrderDate(data.createdAt, i18n.language)} testId="order-date" />
          {data.product && <Row label={t('thankyou.product')} value={productText({ name: data.product.name }, 'name', tApp)} />}
          <Row label={t('thankyou.total')} value={`${formatUsd(data.total_payment)} USD`} testId="order-total" strong />
        </Stack>
        <Button component={Link} to="/" size="md" fullWidth>
          {t('thankyou.ok')}
        </Button>
      </Stack>
    </Card>
  );
}

function Row({ label, value, testId, strong }: { label: string; value: string; testId?: string; strong?: boolean }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="md">
      <Text component="dt" size="sm" c="var(--pluma-muted)">
        {label}
      </Text>
      <Text component="dd" m={0} fw={strong ? 700 : 500} data-testid={testId}>
        {value}
      </Text>
    </Group>
  );
}

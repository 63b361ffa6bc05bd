// /billing (spec part 1 §2): the user's own purchases, saved cards (SavedCards) and invoices, each in its table with status badges,
// dates and totals; Download PDF per invoice; Cancel subscription on an active subscription, after which
// the lists are refreshed at once and again after 1.5 seconds (spec part 1 §4, §9).
import { Alert, Anchor, Badge, Button, Card, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { OwnInvoiceRecord, OwnPurchaseRecord } from '@pluma/common/checkout';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../app/session/session-context';
import { showError, showSuccess } from '../../ui/alerts';
import { PageHeader } from '../../ui/PageHeader';
import { downloadBlob } from '../../ui/download';
import { fetchInvoicePdf, OWN_INVOICES_KEY, OWN_PURCHASES_KEY, useOwnInvoices, useOwnPurchases } from './billing-api';
import { billingErrorText } from './billing-errors';
import { accessEnd, CANCEL_REFRESH_DELAY_MS, canCancel, formatDate, formatMoney, invoiceFileName, isSubscription, statusBadge } from './billing-view';
import { CancelSubscriptionModal } from './CancelSubscriptionModal';
import { SavedCards } from './SavedCards';

function StatusBadge({ status, t }: { status: string; t: TFunction }) {
  const badge = statusBadge(status);
  return (
    // A dot badge: the text keeps the page's contrast (a light badge's tinted text is below WCAG AA).
    <Badge color={badge?.color ?? 'gray'} variant="dot" data-testid="status-badge">
      {badge ? t(badge.labelKey) : status}
    </Badge>
  );
}

function LoadError({ error, onRetry, t }: { error: unknown; onRetry: () => void; t: TFunction }) {
  return (
    <Alert color="red" role="alert" title={t('loadError')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{billingErrorText(error, t)}</Text>
        <Button size="xs" variant="default" onClick={onRetry}>
          {t('retry')}
        </Button>
      </Stack>
    </Alert>
  );
}

function PurchaseAccess({ purchase, lang, t }: { purchase: OwnPurchaseRecord; lang: string; t: TFunction }) {
  if (purchase.status !== 'cancelled') return null;
  const end = accessEnd(purchase);
  if (!end) return null;
  const date = formatDate(end, lang);
  return (
    <Text size="sm" c={end > new Date() ? undefined : 'dimmed'} data-testid="access-until">
      {end > new Date() ? t('purchases.accessUntil', { date }) : t('purchases.accessEnded', { date })}
    </Text>
  );
}

function PurchasesTable({ purchases, lang, onCancel, t }: { purchases: OwnPurchaseRecord[]; lang: string; onCancel: (p: OwnPurchaseRecord) => void; t: TFunction }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="purchases-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('purchases.product')}</Table.Th>
            <Table.Th>{t('purchases.status')}</Table.Th>
            <Table.Th>{t('purchases.date')}</Table.Th>
            <Table.Th>{t('purchases.total')}</Table.Th>
            <Table.Th>{t('purchases.access')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('purchases.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {purchases.map((purchase) => {
            const name = purchase.product?.name ?? t('purchases.noProduct');
            return (
              <Table.Tr key={purchase.purchase_id} data-testid="purchase-row">
                <Table.Td>
                  <Text fw={600}>{name}</Text>
                  <Text size="xs" c="dimmed">
                    {isSubscription(purchase) ? t('purchases.subscription') : t('purchases.oneTime')}
                    {purchase.is_gift ? ` · ${t('purchases.gift')}` : ''}
                    {purchase.discount ? ` · ${t('purchases.discount', { code: purchase.discount.code })}` : ''}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={purchase.status} t={t} />
                </Table.Td>
                <Table.Td>{formatDate(purchase.createdAt, lang)}</Table.Td>
                <Table.Td>{formatMoney(purchase.total_payment)}</Table.Td>
                <Table.Td>
                  <PurchaseAccess purchase={purchase} lang={lang} t={t} />
                </Table.Td>
                <Table.Td>
                  {canCancel(purchase) && (
                    <Button size="xs" variant="subtle" color="red" onClick={() => onCancel(purchase)} aria-label={t('cancel.buttonLabel', { product: name })}>
                      {t('cancel.button')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function InvoicesTable({ invoices, lang, downloading, onDownload, t }: { invoices: OwnInvoiceRecord[]; lang: string; downloading: number | null; onDownload: (i: OwnInvoiceRecord) => void; t: TFunction }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="invoices-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('invoices.number')}</Table.Th>
            <Table.Th>{t('invoices.date')}</Table.Th>
            <Table.Th>{t('invoices.status')}</Table.Th>
            <Table.Th>{t('invoices.total')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('invoices.actions')}</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {invoices.map((invoice) => (
            <Table.Tr key={invoice.invoice_id} data-testid="invoice-row">
              <Table.Td>#{invoice.invoice_id}</Table.Td>
              <Table.Td>{formatDate(invoice.createdAt, lang)}</Table.Td>
              <Table.Td>
                <StatusBadge status={invoice.status} t={t} />
              </Table.Td>
              <Table.Td>{formatMoney(invoice.total_payment)}</Table.Td>
              <Table.Td>
                <Button
                  size="xs"
                  variant="light"
                  leftSection={<IconDownload size={14} aria-hidden />}
                  loading={downloading === invoice.invoice_id}
                  onClick={() => onDownload(invoice)}
                  aria-label={t('invoices.downloadLabel', { number: invoice.invoice_id })}
                >
                  {t('invoices.download')}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Section({ title, testId, children }: { title: string; testId: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="md">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

export default function BillingPage() {
  const { t, i18n } = useTranslation('billing');
  const lang = i18n.language;
  const queryClient = useQueryClient();
  const session = useSession();
  const purchases = useOwnPurchases();
  const invoices = useOwnInvoices();
  const [cancelling, setCancelling] = useState<OwnPurchaseRecord | null>(null);
  const laterRefresh = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => clearTimeout(laterRefresh.current ?? undefined), []);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: OWN_PURCHASES_KEY });
    void queryClient.invalidateQueries({ queryKey: OWN_INVOICES_KEY });
  };

  const onCancelled = () => {
    setCancelling(null);
    showSuccess(t('cancel.success'));
    // spec part 1 §4, §9: refreshed at once and again after 1.5 s (the provider's webhook may land meanwhile).
    refresh();
    clearTimeout(laterRefresh.current ?? undefined);
    laterRefresh.current = setTimeout(refresh, CANCEL_REFRESH_DELAY_MS);
    void session.reloadUser();
  };

  const download = useMutation({
    mutationFn: async (invoice: OwnInvoiceRecord) => downloadBlob(await fetchInvoicePdf(invoice.invoice_id), invoiceFileName(invoice)),
    onError: (error) => showError(billingErrorText(error, t)),
  });

  return (
    <Stack gap="lg" maw={960} data-testid="billing-page">
      <PageHeader title={t('title')} description={t('description')} />

      <Section title={t('purchases.title')} testId="purchases-section">
        {purchases.isPending ? (
          <Skeleton height={80} radius="md" />
        ) : purchases.isError ? (
          <LoadError error={purchases.error} onRetry={() => void purchases.refetch()} t={t} />
        ) : purchases.data.length === 0 ? (
          <Group gap="sm" data-testid="purchases-empty">
            <Text c="dimmed">{t('purchases.empty')}</Text>
            <Anchor component={Link} to="/pricing">
              {t('purchases.seePlans')}
            </Anchor>
          </Group>
        ) : (
          <PurchasesTable purchases={purchases.data} lang={lang} onCancel={setCancelling} t={t} />
        )}
      </Section>

      <Section title={t('cards.title')} testId="saved-cards-section">
        <SavedCards />
      </Section>

      <Section title={t('invoices.title')} testId="invoices-section">
        {invoices.isPending ? (
          <Skeleton height={80} radius="md" />
        ) : invoices.isError ? (
          <LoadError error={invoices.error} onRetry={() => void invoices.refetch()} t={t} />
        ) : invoices.data.length === 0 ? (
          <Text c="dimmed" data-testid="invoices-empty">
            {t('invoices.empty')}
          </Text>
        ) : (
          <InvoicesTable
            invoices={invoices.data}
            lang={lang}
            downloading={download.isPending ? (download.variables?.invoice_id ?? null) : null}
            onDownload={(invoice) => download.mutate(invoice)}
            t={t}
          />
        )}
      </Section>

      <CancelSubscriptionModal purchase={cancelling} onClose={() => setCancelling(null)} onCancelled={onCancelled} />
    </Stack>
  );
}

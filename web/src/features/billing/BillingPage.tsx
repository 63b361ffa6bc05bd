// /billing (spec part 1 §2): the user's own purchases, saved cards (SavedCards) and invoices, each in its table with status badges,
// dates and totals; Download PDF per invoice; Cancel subscription on an active subscription, after which
// the lists are refreshed at once and again after 1.5 seconds (spec part 1 §4, §9).
import { Alert, Anchor, Badge, Button, Card, Group, Skeleton, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import type { OwnInvoiceRecord, OwnPurchaseRecord } from '@pluma/common/checkout';
import { PurchaseFailureReasons } from '@pluma/common/admin-purchases';
import { IconDownload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../platform/session/session-context';
import { showError, showSuccess } from '../../ui/alerts';
import { productText } from '../pricing';
import { LabelledTd, ListTable, WholeTd } from '../../ui/ListTable';
import { PageHeader } from '../../ui/PageHeader';
import { downloadBlob } from '../../ui/download';
import { fetchInvoicePdf, OWN_INVOICES_KEY, OWN_PURCHASES_KEY, useOwnInvoices, useOwnPurchases } from './billing-api';
import { billingErrorText } from './billing-errors';
import { accessLine, type BillingPurchase, CANCEL_REFRESH_DELAY_MS, canCancel, formatDate, formatMoney, invoiceFileName, isFailedPayment, isSubscription, statusBadge } from './billing-view';
import { CancelSubscriptionModal } from './CancelSubscriptionModal';
import { SavedCards } from './SavedCards';

function StatusBadge({ status, t }: { status: string; t: TFunction }) {
  const badge = statusBadge(status);
  return (
    // A dot badge: the text keeps the page's contrast (a light badge's tinted text is below WCAG AA).
    // It keeps its whole word at any column width (a shrunk badge ellipsises).
    <Badge color={badge?.color ?? 'gray'} variant="dot" miw="max-content" data-testid="status-badge" data-status={status}>
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
  const line = accessLine(purchase);
  const ended = line.key === 'purchases.accessEnded' || line.key === 'purchases.accessNone';
  return (
    <Text size="sm" c={ended ? 'dimmed' : undefined} data-testid="access-until" data-access={line.key.replace('purchases.', '')}>
      {t(line.key, { date: line.date ? formatDate(line.date, lang) : '' })}
    </Text>
  );
}

function PurchasesTable({ purchases, lang, onCancel, t }: { purchases: BillingPurchase[]; lang: string; onCancel: (p: OwnPurchaseRecord) => void; t: TFunction }) {
  // The product's name as checkout shows it (pricing's sample names are translated).
  const { t: tApp } = useTranslation();
  return (
    <ListTable
      minWidth={640}
      stacked
      verticalSpacing="sm"
      highlightOnHover
      data-testid="purchases-table"
      head={
        <>
          <Table.Th>{t('purchases.product')}</Table.Th>
          <Table.Th>{t('purchases.status')}</Table.Th>
          <Table.Th>{t('purchases.date')}</Table.Th>
          <Table.Th>{t('purchases.total')}</Table.Th>
          <Table.Th>{t('purchases.access')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('purchases.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {purchases.map((purchase) => {
        const name = purchase.product ? productText(purchase.product, 'name', tApp) : t('purchases.noProduct');
        return (
          <Table.Tr key={purchase.purchase_id} data-testid="purchase-row">
            <LabelledTd label={t('purchases.product')}>
              <div>
                <Text fw={600}>{name}</Text>
                <Text size="xs" c="dimmed">
                  {isSubscription(purchase) ? t('purchases.subscription') : t('purchases.oneTime')}
                  {purchase.is_gift ? ` · ${t('purchases.gift')}` : ''}
                  {purchase.discount ? ` · ${t('purchases.discount', { code: purchase.discount.code })}` : ''}
                </Text>
              </div>
            </LabelledTd>
            <WholeTd label={t('purchases.status')}>
              <StatusBadge status={purchase.status} t={t} />
            </WholeTd>
            <WholeTd label={t('purchases.date')}>{formatDate(purchase.createdAt, lang)}</WholeTd>
            <WholeTd label={t('purchases.total')}>{formatMoney(purchase.total_payment)}</WholeTd>
            <WholeTd label={t('purchases.access')}>
              <PurchaseAccess purchase={purchase} lang={lang} t={t} />
            </WholeTd>
            <WholeTd>
              {canCancel(purchase) && (
                <Button size="xs" variant="subtle" color="red" onClick={() => onCancel(purchase)} aria-label={t('cancel.buttonLabel', { product: name })}>
                  {t('cancel.button')}
                </Button>
              )}
            </WholeTd>
          </Table.Tr>
        );
      })}
    </ListTable>
  );
}

/** Payments that did not go through (status failed), apart from the purchases, each with the provider's reason. */
function FailedPayments({ purchases, lang, t }: { purchases: BillingPurchase[]; lang: string; t: TFunction }) {
  // The product's name as checkout shows it (pricing's sample names are translated).
  const { t: tApp } = useTranslation();
  return (
    <Stack gap="xs" data-testid="failed-payments">
      <Title order={3} fz="md">
        {t('failed.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('failed.description')}
      </Text>
      <ListTable
        minWidth={560}
        stacked
        verticalSpacing="sm"
        data-testid="failed-table"
        head={
          <>
            <Table.Th>{t('purchases.product')}</Table.Th>
            <Table.Th>{t('purchases.date')}</Table.Th>
            <Table.Th>{t('purchases.total')}</Table.Th>
            <Table.Th>{t('failed.reason')}</Table.Th>
            <Table.Th>
              <VisuallyHidden>{t('purchases.actions')}</VisuallyHidden>
            </Table.Th>
          </>
        }
      >
        {purchases.map((purchase) => {
          const name = purchase.product ? productText(purchase.product, 'name', tApp) : t('purchases.noProduct');
          return (
            <Table.Tr key={purchase.purchase_id} data-testid="failed-row">
              <LabelledTd label={t('purchases.product')}>
                <Group gap="xs" wrap="nowrap">
                  <Text fw={600}>{name}</Text>
                  <StatusBadge status={purchase.status} t={t} />
                </Group>
              </LabelledTd>
              <WholeTd label={t('purchases.date')}>{formatDate(purchase.createdAt, lang)}</WholeTd>
              <WholeTd label={t('purchases.total')}>{formatMoney(purchase.total_payment)}</WholeTd>
              <LabelledTd label={t('failed.reason')} data-testid="failure-reason">
                {failureText(purchase.failure_reason, t)}
              </LabelledTd>
              <WholeTd>
                {purchase.product_id != null && purchase.product && (
                  <Anchor component={Link} to={`/checkout/${purchase.product_id}`} size="sm" aria-label={t('failed.retryLabel', { product: name })}>
                    {t('failed.retry')}
                  </Anchor>
                )}
              </WholeTd>
            </Table.Tr>
          );
        })}
      </ListTable>
    </Stack>
  );
}

function InvoicesTable({ invoices, lang, downloading, onDownload, t }: { invoices: OwnInvoiceRecord[]; lang: string; downloading: number | null; onDownload: (i: OwnInvoiceRecord) => void; t: TFunction }) {
  return (
    <ListTable
      minWidth={560}
      stacked
      verticalSpacing="sm"
      highlightOnHover
      data-testid="invoices-table"
      head={
        <>
          <Table.Th>{t('invoices.number')}</Table.Th>
          <Table.Th>{t('invoices.date')}</Table.Th>
          <Table.Th>{t('invoices.status')}</Table.Th>
          <Table.Th>{t('invoices.total')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('invoices.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {invoices.map((invoice) => (
        <Table.Tr key={invoice.invoice_id} data-testid="invoice-row">
          <WholeTd label={t('invoices.number')}>#{invoice.invoice_id}</WholeTd>
          <WholeTd label={t('invoices.date')}>{formatDate(invoice.createdAt, lang)}</WholeTd>
          <WholeTd label={t('invoices.status')}>
            <StatusBadge status={invoice.status} t={t} />
          </WholeTd>
          <WholeTd label={t('invoices.total')}>{formatMoney(invoice.total_payment)}</WholeTd>
          <WholeTd>
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
          </WholeTd>
        </Table.Tr>
      ))}
    </ListTable>
  );
}

/** The purchases, and apart from them the payments that failed (with their reasons). */
function PurchasesList({ purchases, lang, onCancel, t }: { purchases: BillingPurchase[]; lang: string; onCancel: (p: OwnPurchaseRecord) => void; t: TFunction }) {
  const failed = purchases.filter(isFailedPayment);
  const kept = purchases.filter((p) => !isFailedPayment(p));
  return (
    <Stack gap="lg">
      {kept.length > 0 && <PurchasesTable purchases={kept} lang={lang} onCancel={onCancel} t={t} />}
      {failed.length > 0 && <FailedPayments purchases={failed} lang={lang} t={t} />}
    </Stack>
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
          <PurchasesList purchases={purchases.data} lang={lang} onCancel={setCancelling} t={t} />
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

/**
 * Why a payment failed, in the reader's words: our two reasons (a limit or a one-use code reached before the
 * payment arrived: refunded) have their own text; any other is the provider's decline code, shown with it.
 */
function failureText(reason: string | null | undefined, t: TFunction): string {
  if (!reason) return t('failed.noReason');
  if (reason === PurchaseFailureReasons.overLimit || reason === PurchaseFailureReasons.discountUsedUp) return t(`failed.reasons.${reason}`);
  return t('failed.reasons.declined', { code: reason });
}

// /admin (spec part 1 §2 "Admin purchases and invoices", §9): date range (default the start of this month
// to one month later), search (500 ms debounce), status tabs, type tabs, product select, the table with
// 12 a page (at most 5 page buttons; on a phone only the current page), 'No records found'. Admins get
// the row actions (edit, cancel a live subscription, edit or add an invoice); managers only read — each
// row's `abilities` say what the server allows.
import { Badge, Button, Card, Group, Pagination, Select, SegmentedControl, Skeleton, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { STATUS_TABS, TYPE_TABS, type AdminPurchaseRow, type StatusTab, type TypeTab } from '@pluma/common/admin-purchases';
import { ADMIN_PURCHASES_PAGE_SIZE } from '@pluma/common/constants';
import { localDay, purchasesDefaultRange, type DateRange } from '@pluma/common/rules/date-range';
import { IconCircleX, IconEdit, IconPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { DateRangeInput } from '../../ui/DateRangeInput';
import { ListResults } from '../../ui/ListResults';
import { LabelledTd, ListTable, WholeTd } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { SearchInput } from '../../ui/SearchInput';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useListControls } from '../../ui/use-list-controls';
import { ADMIN_RECORDS_KEY, useAdminRecords, useProductChoices, type AdminFilters } from './admin-purchases-api';
import { adminErrorText } from './admin-purchases-errors';
import { formatDateTime, formatMoney, pageWindow, showsPaymentMethod, statusColor } from './admin-purchases-view';
import { CancelSubscriptionModal } from './CancelSubscriptionModal';
import { EditPurchaseModal } from './EditPurchaseModal';
import { InvoiceModal } from './InvoiceModal';

/** A row as the web reads it: `failure_reason` (a failed payment's provider reason) arrives with the purchase lifecycle. */
type AdminRecord = AdminPurchaseRow & { failure_reason?: string | null };

type Dialog = { kind: 'edit'; row: AdminPurchaseRow } | { kind: 'cancel'; row: AdminPurchaseRow } | { kind: 'invoice'; row: AdminPurchaseRow | null } | null;

const rowKey = (row: AdminPurchaseRow) => `${row.type}-${row.type === 'purchase' ? row.purchase_id : row.invoice_id}`;

// Icon buttons (named in full for screen readers, with their tooltip): the table keeps its columns in a
// laptop's width in both languages ("Cancelar suscripción" as text pushed it past the table's edge).
function RowActions({ row, onOpen, t }: { row: AdminPurchaseRow; onOpen: (dialog: Dialog) => void; t: TFunction }) {
  if (!row.abilities.edit) return null;
  if (row.type === 'invoice') {
    return (
      <TooltipIconButton tooltip={t('actions.edit')} label={t('actions.editInvoice', { id: row.invoice_id })} onClick={() => onOpen({ kind: 'invoice', row })}>
        <IconEdit size={16} aria-hidden />
      </TooltipIconButton>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <TooltipIconButton tooltip={t('actions.edit')} label={t('actions.editPurchase', { id: row.purchase_id })} onClick={() => onOpen({ kind: 'edit', row })}>
        <IconEdit size={16} aria-hidden />
      </TooltipIconButton>
      {row.abilities.cancel_subscription && (
        <TooltipIconButton tooltip={t('actions.cancelSubscription')} label={t('actions.cancelSubscriptionOf', { id: row.purchase_id })} color="red" onClick={() => onOpen({ kind: 'cancel', row })}>
          <IconCircleX size={16} aria-hidden />
        </TooltipIconButton>
      )}
    </Group>
  );
}

function RecordsTable({ rows, lang, onOpen, t }: { rows: AdminRecord[]; lang: string; onOpen: (dialog: Dialog) => void; t: TFunction }) {
  return (
    <ListTable
      minWidth={900}
      stacked
      verticalSpacing="sm"
      highlightOnHover
      data-testid="records-table"
      head={
        <>
          <Table.Th>{t('columns.number')}</Table.Th>
          <Table.Th>{t('columns.date')}</Table.Th>
          <Table.Th>{t('columns.customer')}</Table.Th>
          <Table.Th>{t('columns.product')}</Table.Th>
          <Table.Th>{t('columns.status')}</Table.Th>
          <Table.Th>{t('columns.total')}</Table.Th>
          <Table.Th>{t('columns.paymentMethod')}</Table.Th>
          <Table.Th>
            <VisuallyHidden>{t('columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
    >
      {rows.map((row) => (
        <Table.Tr key={rowKey(row)} data-testid="record-row">
          <WholeTd label={t('columns.number')}>
            <div>
              <Text size="sm" fw={600}>
                #{row.type === 'purchase' ? row.purchase_id : row.invoice_id}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`kind.${row.type}`)}
                {row.is_gift ? ` · ${t('gift')}` : ''}
              </Text>
            </div>
          </WholeTd>
          <WholeTd label={t('columns.date')} data-testid="record-date">
            {formatDateTime(row.createdAt, lang)}
          </WholeTd>
          <LabelledTd label={t('columns.customer')} miw={150} style={{ overflowWrap: 'anywhere' }}>
            {row.user ? (
              <div>
                <Text size="sm">{`${row.user.name} ${row.user.last_name}`.trim()}</Text>
                <Text size="xs" c="dimmed">
                  {row.user.email}
                </Text>
              </div>
            ) : (
              <Text size="sm" c="dimmed">
                {t('noCustomer')}
              </Text>
            )}
          </LabelledTd>
          <LabelledTd label={t('columns.product')}>{row.product?.name ?? t('noProduct')}</LabelledTd>
          <WholeTd label={t('columns.status')}>
            <div>
              <Badge variant="dot" color={statusColor(row.status)} miw="max-content" data-testid="record-status" data-status={row.status}>
                {t(`statuses.${row.status}`, { defaultValue: row.status })}
              </Badge>
              {row.status === 'failed' && row.failure_reason && (
                <Text size="xs" c="dimmed" maw={200} style={{ whiteSpace: 'normal' }} data-testid="record-failure-reason">
                  {row.failure_reason}
                </Text>
              )}
            </div>
          </WholeTd>
          <WholeTd label={t('columns.total')}>
            <div>
              <Text size="sm">{formatMoney(row.total_payment)}</Text>
              {row.discount && (
                <Text size="xs" c="dimmed" data-testid="record-discount">
                  {t('discountCode', { code: row.discount.code })}
                </Text>
              )}
            </div>
          </WholeTd>
          <LabelledTd label={t('columns.paymentMethod')}>{showsPaymentMethod(row) ? (row.payment_method?.name ?? '') : ''}</LabelledTd>
          <WholeTd>
            <RowActions row={row} onOpen={onOpen} t={t} />
          </WholeTd>
        </Table.Tr>
      ))}
    </ListTable>
  );
}

/** spec part 1 §2: up to 5 page buttons around the current page; a compact screen shows only the current one. */
function Pages({ page, total, onChange, compact, t }: { page: number; total: number; onChange: (page: number) => void; compact: boolean; t: TFunction }) {
  if (total <= 1) return null;
  return (
    <Pagination.Root total={total} value={page} onChange={onChange}>
      <Group gap={4} justify="center" component="nav" aria-label={t('pagination')} data-testid="pagination">
        <Pagination.Previous aria-label={t('previousPage')} />
        {pageWindow(page, total, compact ? 1 : 5).map((n) => (
          <Pagination.Control key={n} active={n === page} aria-current={n === page ? 'page' : undefined} onClick={() => onChange(n)}>
            {n}
          </Pagination.Control>
        ))}
        <Pagination.Next aria-label={t('nextPage')} />
      </Group>
    </Pagination.Root>
  );
}

export default function AdminPurchasesPage() {
  const { t, i18n } = useTranslation('admin-purchases');
  const queryClient = useQueryClient();
  const user = useCurrentUser();
  const isAdmin = user.staff?.role === 'admin';
  const compact = useMediaQuery('(max-width: 48em)') ?? false;
  const [range, setRange] = useState<DateRange>(() => purchasesDefaultRange(localDay(new Date())));
  const [status, setStatus] = useState<StatusTab>('all');
  const [type, setType] = useState<TypeTab>('all');
  const [productId, setProductId] = useState<number | null>(null);
  // A new filter starts again at page 1.
  const { search, setSearch, query, page, setPage, pageCount } = useListControls(ADMIN_PURCHASES_PAGE_SIZE, [range, status, type, productId]);
  const [dialog, setDialog] = useState<Dialog>(null);
  const filters: AdminFilters = { page, query, status, type, product_id: productId, ...range };
  const records = useAdminRecords(filters);
  const products = useProductChoices();

  const changed = (message: string) => {
    setDialog(null);
    showSuccess(message);
    void queryClient.invalidateQueries({ queryKey: ADMIN_RECORDS_KEY });
  };

  return (
    <Stack gap="lg" data-testid="admin-purchases-page">
      <PageHeader title={t('title')} description={t('description')} />
      <Card withBorder radius="lg" padding="lg">
        <Stack gap="md">
          <Group align="flex-end" wrap="wrap">
            <DateRangeInput label={t('filters.dateRange')} value={range} onChange={setRange} data-testid="date-range" />
            <SearchInput label={t('filters.search')} placeholder={t('filters.searchPlaceholder')} value={search} onChange={setSearch} maxLength={200} miw={260} data-testid="search" />
            <Select
              label={t('filters.product')}
              placeholder={t('filters.allProducts')}
              data={(products.data?.products ?? []).map((p) => ({ value: String(p.product_id), label: p.name }))}
              value={productId ? String(productId) : null}
              onChange={(value) => setProductId(value ? Number(value) : null)}
              clearable
              searchable
              data-testid="product-select"
            />
            {isAdmin && (
              <Button leftSection={<IconPlus size={16} aria-hidden />} variant="light" onClick={() => setDialog({ kind: 'invoice', row: null })}>
                {t('actions.newInvoice')}
              </Button>
            )}
          </Group>
          <Group wrap="wrap" gap="md" data-testid="record-filters">
            {/* On a phone each control takes the card's width in smaller type, so no tab is cut off. */}
            <SegmentedControl
              fullWidth={compact}
              size={compact ? 'xs' : 'sm'}
              aria-label={t('filters.status')}
              value={status}
              onChange={(value) => setStatus(value as StatusTab)}
              data={STATUS_TABS.map((tab) => ({ value: tab, label: t(`statusTabs.${tab}`) }))}
              data-testid="status-tabs"
            />
            <SegmentedControl
              fullWidth={compact}
              size={compact ? 'xs' : 'sm'}
              aria-label={t('filters.type')}
              value={type}
              onChange={(value) => setType(value as TypeTab)}
              data={TYPE_TABS.map((tab) => ({ value: tab, label: t(`typeTabs.${tab}`) }))}
              data-testid="type-tabs"
            />
          </Group>

          <ListResults
            list={records}
            isEmpty={(data) => data.rows.length === 0}
            loading={<Skeleton height={160} radius="md" data-testid="records-loading" />}
            failed={<LoadErrorAlert title={t('loadError')} text={adminErrorText(records.error, t)} onRetry={() => void records.refetch()} retryLabel={t('retry')} />}
            empty={
              <Text c="dimmed" ta="center" py="xl" data-testid="records-empty">
                {t('empty')}
              </Text>
            }
          >
            {(data) => (
              <>
                <Text size="sm" c="dimmed" data-testid="records-total">
                  {/* A search counts only as far as the page buttons reach (the server's total_capped). */}
                  {t(data.total_capped ? 'totalMore' : 'total', { count: data.total })}
                </Text>
                <RecordsTable rows={data.rows} lang={i18n.language} onOpen={setDialog} t={t} />
              </>
            )}
          </ListResults>
          {records.data && <Pages page={page} total={pageCount(records.data.total)} onChange={setPage} compact={compact} t={t} />}
        </Stack>
      </Card>

      {dialog?.kind === 'edit' && <EditPurchaseModal key={rowKey(dialog.row)} row={dialog.row} onClose={() => setDialog(null)} onSaved={() => changed(t('edit.saved'))} />}
      {dialog?.kind === 'cancel' && (
        <CancelSubscriptionModal key={rowKey(dialog.row)} row={dialog.row} onClose={() => setDialog(null)} onCancelled={() => changed(t('cancel.done'))} />
      )}
      {dialog?.kind === 'invoice' && (
        <InvoiceModal key={dialog.row ? rowKey(dialog.row) : 'new'} row={dialog.row} onClose={() => setDialog(null)} onSaved={() => changed(t('invoice.saved'))} />
      )}
    </Stack>
  );
}

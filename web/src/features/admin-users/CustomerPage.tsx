// /admin/users/{id} (spec part 1 §2 "Customer detail"): profile card with Edit; send the recovery email;
// generate a reset link (copied, 'Enlace copiado al portapapeles.'); log in as the user in a new window
// (admins, never for staff); total purchases; purchases with give access, extend and revoke; invoices;
// delete with the spec's confirmation, then /admin/users. Buttons a manager may not use are hidden
// (docs/decisions.md "Staff rights").
import { Anchor, Badge, Button, Group, Skeleton, Stack, Table } from '@mantine/core';
import type { CustomerInvoice, CustomerPurchase } from '@pluma/common/admin-users';
import { mayGiveAccess } from '@pluma/common/rules/purchase-expiry';
import { IconBrandWhatsapp, IconEdit, IconKey, IconLogin, IconMail, IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { useCurrentUser } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { copyToClipboard } from '../../ui/clipboard';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LabelledTd, WholeTd } from '../../ui/ListTable';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { RecordsSection } from '../../ui/RecordsSection';
import { screenText } from '../../ui/screen-text';
import { useErrorHandler } from '../../ui/use-error-handler';
import { CUSTOMERS_KEY, createResetLink, customerKey, deleteCustomer, impersonate, impersonationUrl, revokeAccess, sendRecoveryEmail, useCustomer } from './admin-users-api';
import { InvoiceModal } from '../admin-purchases';
import { formatDateTime, formatMoney, formatNumber, invoiceEditorRow, whatsappLink } from './customers-view';
import { CustomerCard, CustomerField as Field } from './CustomerCard';
import { ExtendAccessModal } from './ExtendAccessModal';
import { GiveAccessModal } from './GiveAccessModal';

export default function CustomerPage() {
  // Statuses are worded as on /admin (the admin-purchases namespace).
  const { t, i18n } = useTranslation(['admin-users', 'admin-purchases']);
  const lang = i18n.language;
  const me = useCurrentUser();
  const isAdmin = me.staff?.role === 'admin';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const userId = Number(useParams().id);
  const customer = useCustomer(Number.isInteger(userId) && userId > 0 ? userId : null);
  const [giving, setGiving] = useState(false);
  const [extending, setExtending] = useState<CustomerPurchase | null>(null);
  const [revoking, setRevoking] = useState<CustomerPurchase | null>(null);
  const [deleting, setDeleting] = useState(false);
  /** The invoice being added ('new') or edited, in the back office's invoice editor (admins). */
  const [invoice, setInvoice] = useState<CustomerInvoice | 'new' | null>(null);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: customerKey(userId) });
    void queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY });
  };
  const email = customer.data?.email ?? '';

  const recovery = useMutation({ mutationFn: () => sendRecoveryEmail(email), onSuccess: () => showSuccess(t('detail.recoverySent')), onError: (e) => handleError(e) });
  const resetLink = useMutation({
    mutationFn: () => createResetLink(email),
    // spec part 1 §8: 'Enlace copiado al portapapeles.' (its English counterpart in English).
    onSuccess: ({ link }) => void copyToClipboard(link, i18n.t('clipboard.linkCopied')),
    onError: (e) => handleError(e),
  });
  const loginAs = useMutation({
    mutationFn: async () => {
      // Opened before the call, while the click still counts as the user's (popup blockers).
      const win = window.open('', '_blank');
      try {
        const { uid } = await impersonate(userId);
        if (win) {
          win.opener = null;
          win.location.href = impersonationUrl(uid);
        }
      } catch (error) {
        win?.close();
        throw error;
      }
    },
    onError: (e) => handleError(e),
  });
  const revoke = useMutation({
    mutationFn: (purchaseId: number) => revokeAccess(purchaseId),
    onSuccess: () => {
      showSuccess(t('access.revoked'));
      setRevoking(null);
      refresh();
    },
    onError: (e) => handleError(e),
  });
  const remove = useMutation({
    mutationFn: () => deleteCustomer(userId),
    onSuccess: () => {
      showSuccess(t('detail.deleted'));
      void queryClient.invalidateQueries({ queryKey: CUSTOMERS_KEY });
      void navigate('/admin/users');
    },
    onError: (e) => {
      setDeleting(false);
      handleError(e);
    },
  });

  if (customer.isPending) {
    return (
      <Stack data-testid="customer-loading">
        <Skeleton height={32} width={240} />
        <Skeleton height={160} />
      </Stack>
    );
  }
  if (customer.isError) {
    return (
      <LoadErrorAlert text={screenText({ failure: customer.error }, t) ?? t('loadError')} data-testid="customer-error" />
    );
  }
  const c = customer.data;
  const name = `${c.name} ${c.last_name}`.trim();
  const whatsapp = whatsappLink(c.phone);

  return (
    <Stack gap="lg" data-testid="customer-page">
      <PageHeader
        title={name}
        actions={
          isAdmin && (
            <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDeleting(true)} data-testid="delete-customer">
              {t('detail.delete')}
            </Button>
          )
        }
      />
      <CustomerCard
        name={name}
        picture={c.picture}
        badge={c.staff && <Badge>{t(`roles.${c.staff.role}`)}</Badge>}
        aside={
          isAdmin && (
            <Button component={Link} to={`/admin/users/${c.user_id}/edit`} variant="default" leftSection={<IconEdit size={16} aria-hidden />} data-testid="edit-customer">
              {t('detail.edit')}
            </Button>
          )
        }
        actions={
          <>
            <Button variant="light" leftSection={<IconMail size={16} aria-hidden />} loading={recovery.isPending} onClick={() => recovery.mutate()} data-testid="send-recovery">
              {t('detail.sendRecovery')}
            </Button>
            <Button variant="light" leftSection={<IconKey size={16} aria-hidden />} loading={resetLink.isPending} onClick={() => resetLink.mutate()} data-testid="reset-link">
              {t('detail.resetLink')}
            </Button>
            {isAdmin && !c.staff && (
              <Button variant="light" leftSection={<IconLogin size={16} aria-hidden />} loading={loginAs.isPending} onClick={() => loginAs.mutate()} data-testid="login-as">
                {t('detail.loginAs')}
              </Button>
            )}
          </>
        }
      >
        <Field label={t('fields.email')}>{c.email}</Field>
        <Group gap="xl" wrap="wrap">
          <Field label={t('detail.birthdate')}>{c.birthday ?? '—'}</Field>
          <Field label={t('fields.phone')}>
            {c.phone ?? '—'}{' '}
            {whatsapp && (
              <Anchor href={whatsapp} target="_blank" rel="noopener noreferrer" aria-label={t('list.whatsapp', { phone: c.phone })}>
                <IconBrandWhatsapp size={14} aria-hidden />
              </Anchor>
            )}
          </Field>
          <Field label={t('detail.instagram')}>{c.instagram ?? '—'}</Field>
        </Group>
        <Group gap="xl" wrap="wrap">
          <Field label={t('detail.totalPurchases')}>{c.total_purchases}</Field>
          <Field label={t('list.totalWords')}>{formatNumber(c.total_words, lang)}</Field>
          <Field label={t('list.ltv')}>{formatMoney(c.value, lang)}</Field>
          <Field label={t('list.lastUsed')}>{c.last_used ? formatDateTime(c.last_used, lang) : t('list.notUsed')}</Field>
        </Group>
      </CustomerCard>

      <RecordsSection
        title={t('detail.purchases')}
        action={
          <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setGiving(true)} data-testid="give-access">
            {t('access.give')}
          </Button>
        }
        isEmpty={c.purchases.length === 0}
        emptyText={t('detail.noRecords')}
        minWidth={640}
        stacked
        tableTestId="customer-purchases"
        head={
          <>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('access.product')}</Table.Th>
            <Table.Th>{t('detail.status')}</Table.Th>
            <Table.Th>{t('access.total')}</Table.Th>
            <Table.Th>{t('detail.date')}</Table.Th>
            <Table.Th>{t('detail.expires')}</Table.Th>
            <Table.Th>{t('detail.actions')}</Table.Th>
          </>
        }
      >
        {c.purchases.map((p) => (
          <Table.Tr key={p.purchase_id} data-testid="customer-purchase">
            <WholeTd label="#">{p.purchase_id}</WholeTd>
            <LabelledTd label={t('access.product')}>
              <span>
                {p.product?.name ?? '—'}
                {p.is_gift && (
                  <Badge ml="xs" size="xs" variant="outline" miw="max-content">
                    {t('access.giftBadge')}
                  </Badge>
                )}
              </span>
            </LabelledTd>
            <WholeTd label={t('detail.status')}>{t(`admin-purchases:statuses.${p.status}`, { defaultValue: p.status })}</WholeTd>
            <WholeTd label={t('access.total')}>{formatMoney(p.total_payment, lang)}</WholeTd>
            <WholeTd label={t('detail.date')}>{formatDateTime(p.createdAt, lang)}</WholeTd>
            {/* Only a purchase that gives access has an end to it (common rule): a revoked, failed or
                pending one says so instead of an "Access until" date. */}
            <WholeTd label={t('detail.expires')} data-testid="purchase-expires">{mayGiveAccess({ status: p.status, cancelReason: p.cancel_reason }) ? formatDateTime(p.expires_at, lang) : t('detail.noAccess')}</WholeTd>
            <WholeTd>
              <Group gap="xs" wrap="nowrap">
                {mayGiveAccess({ status: p.status, cancelReason: p.cancel_reason }) && (
                  <Button size="compact-xs" variant="subtle" onClick={() => setExtending(p)} aria-label={t('access.extendLabel', { id: p.purchase_id })}>
                    {t('access.extend')}
                  </Button>
                )}
                {isAdmin && p.status !== 'revoked' && (
                  <Button size="compact-xs" variant="subtle" color="red" onClick={() => setRevoking(p)} aria-label={t('access.revokeLabel', { id: p.purchase_id })}>
                    {t('access.revoke')}
                  </Button>
                )}
              </Group>
            </WholeTd>
          </Table.Tr>
        ))}
      </RecordsSection>

      <RecordsSection
        title={t('detail.invoices')}
        action={
          isAdmin && (
            <Button size="xs" leftSection={<IconPlus size={14} aria-hidden />} onClick={() => setInvoice('new')} data-testid="add-invoice">
              {t('detail.addInvoice')}
            </Button>
          )
        }
        isEmpty={c.invoices.length === 0}
        emptyText={t('detail.noRecords')}
        minWidth={520}
        stacked
        tableTestId="customer-invoices"
        head={
          <>
            <Table.Th>#</Table.Th>
            <Table.Th>{t('detail.purchase')}</Table.Th>
            <Table.Th>{t('detail.status')}</Table.Th>
            <Table.Th>{t('access.total')}</Table.Th>
            <Table.Th>{t('detail.date')}</Table.Th>
            {isAdmin && <Table.Th>{t('detail.actions')}</Table.Th>}
          </>
        }
      >
        {c.invoices.map((i) => (
          <Table.Tr key={i.invoice_id} data-testid="customer-invoice">
            <WholeTd label="#">{i.invoice_id}</WholeTd>
            <WholeTd label={t('detail.purchase')}>{i.purchase_id ?? '—'}</WholeTd>
            <WholeTd label={t('detail.status')}>{t(`admin-purchases:statuses.${i.status}`, { defaultValue: i.status })}</WholeTd>
            <WholeTd label={t('access.total')}>{formatMoney(i.total_payment, lang)}</WholeTd>
            <WholeTd label={t('detail.date')}>{formatDateTime(i.createdAt, lang)}</WholeTd>
            {isAdmin && (
              <WholeTd>
                <Button size="compact-xs" variant="subtle" leftSection={<IconEdit size={14} aria-hidden />} onClick={() => setInvoice(i)} aria-label={t('detail.editInvoiceLabel', { id: i.invoice_id })}>
                  {t('detail.edit')}
                </Button>
              </WholeTd>
            )}
          </Table.Tr>
        ))}
      </RecordsSection>

      {invoice != null && (
        <InvoiceModal
          key={invoice === 'new' ? 'new' : invoice.invoice_id}
          row={invoiceEditorRow(c, invoice === 'new' ? null : invoice)}
          onClose={() => setInvoice(null)}
          onSaved={() => {
            showSuccess(t('detail.invoiceSaved'));
            setInvoice(null);
            refresh();
          }}
        />
      )}
      <GiveAccessModal userId={c.user_id} opened={giving} onClose={() => setGiving(false)} onDone={refresh} />
      <ExtendAccessModal key={extending?.purchase_id ?? 0} userId={c.user_id} purchase={extending} onClose={() => setExtending(null)} onDone={refresh} />
      <ConfirmModal
        opened={revoking != null}
        onClose={() => setRevoking(null)}
        title={t('access.revokeTitle')}
        warning={t('access.revokeConfirm')}
        onConfirm={() => revoking && revoke.mutate(revoking.purchase_id)}
        confirmLabel={t('access.revoke')}
        pending={revoke.isPending}
        data-testid="revoke-modal"
      />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title={t('detail.delete')}
        warning={t('detail.deleteConfirm')}
        onConfirm={() => remove.mutate()}
        confirmLabel={t('detail.delete')}
        pending={remove.isPending}
        data-testid="delete-modal"
      />
    </Stack>
  );
}

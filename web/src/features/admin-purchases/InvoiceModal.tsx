// Add or edit an invoice (spec part 1 §3 Invoice, §4: a new invoice defaults to status pending, amount 0,
// no purchase, no user; status chosen freely). Numbers of a purchase and a customer link it; the server
// checks they exist and match. Picking a purchase fills the amount with its total (and the customer, when
// none is set); the admin may change them afterwards.
import { Alert, NumberInput, Select, TextInput } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { adminCreateInvoiceRequest, INVOICE_STATUSES, type AdminPurchaseRow } from '@pluma/common/admin-purchases';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { fieldErrorText } from '../../ui/screen-text';
import { createInvoice, updateInvoice } from './admin-purchases-api';
import { adminErrorText, serverFieldError } from './admin-purchases-errors';
import { formatMoney } from './admin-purchases-view';
import { usePurchaseLookup } from './purchase-lookup';

interface Values {
  status: (typeof INVOICE_STATUSES)[number];
  amount: number;
  total_payment: number;
  purchase_id: number | '';
  user_id: number | '';
  order_id: string;
  expiration_date: string | null;
}

const NEW_INVOICE: Values = { status: 'pending', amount: 0, total_payment: 0, purchase_id: '', user_id: '', order_id: '', expiration_date: null };

function valuesOf(row: AdminPurchaseRow | null): Values {
  if (!row) return NEW_INVOICE;
  return {
    status: (INVOICE_STATUSES as readonly string[]).includes(row.status) ? (row.status as Values['status']) : 'pending',
    amount: row.amount,
    total_payment: row.total_payment,
    purchase_id: row.purchase_id ?? '',
    user_id: row.user?.user_id ?? '',
    order_id: row.order_id ?? '',
    expiration_date: row.expiration_date ? row.expiration_date.slice(0, 10) : null,
  };
}

const payloadOf = (values: Values) => ({
  status: values.status,
  amount: values.amount,
  total_payment: values.total_payment,
  purchase_id: values.purchase_id === '' ? null : values.purchase_id,
  user_id: values.user_id === '' ? null : values.user_id,
  order_id: values.order_id.trim() || null,
  expiration_date: values.expiration_date || null,
});

interface Props {
  /** The invoice to edit, or null for a new one. The page mounts the modal per invoice (key). */
  row: AdminPurchaseRow | null;
  onClose: () => void;
  onSaved: (row: AdminPurchaseRow) => void;
}

export function InvoiceModal({ row, onClose, onSaved }: Props) {
  const { t } = useTranslation('admin-purchases');
  const { t: tMain } = useTranslation();
  const form = useForm<Values>({ initialValues: valuesOf(row), validate: formRules<Values>({ schema: adminCreateInvoiceRequest, payload: payloadOf }) });
  const save = useMutation({
    mutationFn: (values: Values) => (row?.invoice_id ? updateInvoice({ invoice_id: row.invoice_id, ...payloadOf(values) }) : createInvoice(payloadOf(values))),
    onSuccess: onSaved,
  });
  const picked = usePurchaseLookup(form.values.purchase_id === '' ? null : form.values.purchase_id);
  // Filled once per purchase picked: an edited invoice keeps the amount it has until another is picked.
  const filledFor = useRef<number | null>(row?.purchase_id ?? null);
  const { setFieldValue, getValues } = form;
  useEffect(() => {
    const purchase = picked.purchase;
    if (!purchase?.purchase_id || filledFor.current === purchase.purchase_id) return;
    filledFor.current = purchase.purchase_id;
    setFieldValue('amount', purchase.total_payment);
    if (getValues().user_id === '' && purchase.user) setFieldValue('user_id', purchase.user.user_id);
  }, [picked.purchase, setFieldValue, getValues]);
  const purchaseHint = picked.purchase
    ? t('invoice.purchaseFound', { product: picked.purchase.product?.name ?? t('noProduct'), total: formatMoney(picked.purchase.total_payment) })
    : null;
  const errorOf = (field: keyof Values) => (fieldErrorText(form.errors[field], tMain) as ReactNode) || serverFieldError(save.error, field);
  const fieldNamed = save.error && ['purchase_id', 'user_id', 'amount', 'total_payment', 'order_id', 'expiration_date'].some((f) => serverFieldError(save.error, f));
  const callError = save.error && !fieldNamed ? adminErrorText(save.error, t) : null;

  const submit = () => {
    if (form.validate().hasErrors) return;
    save.mutate(form.values);
  };

  return (
    <Modal
      opened
      onClose={() => !save.isPending && onClose()}
      title={row?.invoice_id ? t('invoice.titleEdit', { id: row.invoice_id }) : t('invoice.titleNew')}
      onConfirm={submit}
      confirmLabel={t('invoice.save')}
      confirmLoading={save.isPending}
      data-testid="invoice-modal"
    >
      <Select
        label={t('invoice.status')}
        data={INVOICE_STATUSES.map((status) => ({ value: status, label: t(`statuses.${status}`) }))}
        allowDeselect={false}
        {...form.getInputProps('status')}
        data-testid="invoice-status"
      />
      <NumberInput label={t('invoice.amount')} min={0} decimalScale={2} {...form.getInputProps('amount')} error={errorOf('amount')} data-testid="invoice-amount" />
      <NumberInput label={t('invoice.total')} min={0} decimalScale={2} {...form.getInputProps('total_payment')} error={errorOf('total_payment')} />
      <NumberInput
        label={t('invoice.purchaseId')}
        placeholder={t('invoice.none')}
        min={1}
        allowDecimal={false}
        {...form.getInputProps('purchase_id')}
        description={purchaseHint}
        error={errorOf('purchase_id') || (picked.notFound ? t('invoice.purchaseNotFound') : null)}
        data-testid="invoice-purchase"
      />
      <NumberInput label={t('invoice.userId')} placeholder={t('invoice.none')} min={1} allowDecimal={false} {...form.getInputProps('user_id')} error={errorOf('user_id')} data-testid="invoice-user" />
      <TextInput label={t('invoice.orderId')} maxLength={200} {...form.getInputProps('order_id')} error={errorOf('order_id')} />
      <DateInput label={t('invoice.expirationDate')} valueFormat="YYYY-MM-DD" clearable {...form.getInputProps('expiration_date')} error={errorOf('expiration_date')} />
      {callError && (
        <Alert color="red" role="alert" data-testid="invoice-error">
          {callError}
        </Alert>
      )}
    </Modal>
  );
}

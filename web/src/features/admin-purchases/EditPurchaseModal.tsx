// Edit a purchase (spec part 1 §4): the status select offers only what the rules allow (a cancelled or
// revoked purchase only cancelled or revoked); choosing cancelled asks for a reason of at least 10
// characters and shows the warning (benefits last until expiry, no further recurring charges, cannot be
// undone). Also the amount, total and expiration days. The server checks the same rules (409/400).
import { Alert, NumberInput, Select, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { adminUpdatePurchaseRequest, allowedPurchaseStatuses, type AdminPurchaseRow, type PurchaseStatus } from '@pluma/common/admin-purchases';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CancelReasonFields } from '../../ui/CancelReasonFields';
import { formRules } from '../../ui/form-rules';
import { Modal } from '../../ui/Modal';
import { fieldErrorText } from '../../ui/screen-text';
import { updatePurchase } from './admin-purchases-api';
import { adminErrorText, serverFieldError } from './admin-purchases-errors';

interface Values {
  status: PurchaseStatus;
  cancel_reason: string;
  amount: number;
  total_payment: number;
  expiration_days: number | '';
}

interface Props {
  /** The page mounts the modal per row (key), so the form starts from that row. */
  row: AdminPurchaseRow;
  onClose: () => void;
  onSaved: (row: AdminPurchaseRow) => void;
}

const valuesOf = (row: AdminPurchaseRow): Values => ({
  status: row.status as PurchaseStatus,
  cancel_reason: row.cancel_reason ?? '',
  amount: row.amount,
  total_payment: row.total_payment,
  expiration_days: row.expiration_days ?? '',
});

/** The PUT body: the status and reason only when they matter, the figures always. */
function payloadOf(row: AdminPurchaseRow, values: Values) {
  return {
    purchase_id: row.purchase_id ?? 0,
    status: values.status,
    ...(values.status === 'cancelled' ? { cancel_reason: values.cancel_reason.trim() } : {}),
    amount: values.amount,
    total_payment: values.total_payment,
    expiration_days: values.expiration_days === '' ? null : values.expiration_days,
  };
}

export function EditPurchaseModal({ row, onClose, onSaved }: Props) {
  const { t } = useTranslation('admin-purchases');
  // Field errors are keys of the main namespace or the server's words (ui/screen-text.ts).
  const { t: tMain } = useTranslation();
  const form = useForm<Values>({
    initialValues: valuesOf(row),
    validate: formRules<Values>({ schema: adminUpdatePurchaseRequest, payload: (v) => payloadOf(row, v) }),
  });
  const save = useMutation({ mutationFn: updatePurchase, onSuccess: onSaved });
  const errorOf = (field: keyof Values) => fieldErrorText(form.errors[field], tMain) as ReactNode;

  const statuses = allowedPurchaseStatuses(row.status);
  const cancelling = form.values.status === 'cancelled';
  const reasonError = (errorOf('cancel_reason') as string | undefined) ?? serverFieldError(save.error, 'cancel_reason');
  const callError = save.error && !serverFieldError(save.error, 'cancel_reason') ? adminErrorText(save.error, t) : null;

  const submit = () => {
    const result = form.validate();
    if (result.hasErrors) return;
    save.mutate(payloadOf(row, form.values));
  };

  return (
    <Modal
      opened
      onClose={() => !save.isPending && onClose()}
      title={t('edit.title', { id: row.purchase_id })}
      onConfirm={submit}
      confirmLabel={t('edit.save')}
      confirmLoading={save.isPending}
      data-testid="edit-purchase-modal"
    >
      <Select
        label={t('edit.status')}
        data={statuses.map((status) => ({ value: status, label: t(`statuses.${status}`) }))}
        allowDeselect={false}
        {...form.getInputProps('status')}
        data-testid="edit-status"
      />
      {statuses.length < 5 && (
        <Text size="sm" c="dimmed" data-testid="final-note">
          {t('edit.finalNote')}
        </Text>
      )}
      {cancelling && (
        <CancelReasonFields
          warning={t('edit.warning')}
          label={t('edit.reason')}
          placeholder={t('edit.reasonPlaceholder')}
          {...form.getInputProps('cancel_reason')}
          error={reasonError}
          data-testid="edit-reason"
        />
      )}
      <NumberInput label={t('edit.amount')} min={0} decimalScale={2} {...form.getInputProps('amount')} error={errorOf('amount')} />
      <NumberInput label={t('edit.total')} min={0} decimalScale={2} {...form.getInputProps('total_payment')} error={errorOf('total_payment')} />
      <NumberInput label={t('edit.expirationDays')} min={1} allowDecimal={false} {...form.getInputProps('expiration_days')} error={errorOf('expiration_days')} />
      {callError && (
        <Alert color="red" role="alert" data-testid="edit-error">
          {callError}
        </Alert>
      )}
    </Modal>
  );
}

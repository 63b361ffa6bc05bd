// Staff cancel a live subscription (spec part 1 §2 "cancel-subscription modal", §4): a reason of at least 10
// characters and the warning; the server cancels it at its provider too (Stripe at period end, PayPal at
// once) before marking it cancelled.
import { Alert, Text, Textarea } from '@mantine/core';
import { CANCEL_REASON_MIN_LENGTH } from '@pluma/common/constants';
import type { AdminPurchaseRow } from '@pluma/common/admin-purchases';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { updatePurchase } from './admin-purchases-api';
import { adminErrorText, serverFieldError } from './admin-purchases-errors';

interface Props {
  /** The page mounts the modal per row (key). */
  row: AdminPurchaseRow;
  onClose: () => void;
  onCancelled: (row: AdminPurchaseRow) => void;
}

export function CancelSubscriptionModal({ row, onClose, onCancelled }: Props) {
  const { t } = useTranslation('admin-purchases');
  const [reason, setReason] = useState('');
  const [tried, setTried] = useState(false);
  const cancel = useMutation({
    mutationFn: () => updatePurchase({ purchase_id: row.purchase_id ?? 0, status: 'cancelled', cancel_reason: reason.trim() }),
    onSuccess: onCancelled,
  });
  const valid = reason.trim().length >= CANCEL_REASON_MIN_LENGTH;
  const confirm = () => {
    setTried(true);
    if (valid) cancel.mutate();
  };
  const reasonError = tried && !valid ? t('edit.reasonRequired') : serverFieldError(cancel.error, 'cancel_reason');
  const callError = cancel.error && !serverFieldError(cancel.error, 'cancel_reason') ? adminErrorText(cancel.error, t) : null;

  return (
    <Modal
      opened
      onClose={() => !cancel.isPending && onClose()}
      title={t('cancel.title', { id: row.purchase_id })}
      onConfirm={confirm}
      confirmLabel={t('cancel.confirm')}
      cancelLabel={t('cancel.keep')}
      confirmColor="red"
      confirmLoading={cancel.isPending}
      data-testid="admin-cancel-modal"
    >
      <Text fw={600}>
        {row.product?.name ?? t('noProduct')} · {row.user?.email ?? t('noCustomer')}
      </Text>
      <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="cancel-warning">
        {t('edit.warning')}
      </Alert>
      <Textarea
        label={t('edit.reason')}
        placeholder={t('edit.reasonPlaceholder')}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={reasonError}
        minRows={3}
        autosize
        maxLength={2000}
        required
        data-autofocus
        data-testid="cancel-reason"
      />
      {callError && (
        <Alert color="red" role="alert" data-testid="cancel-error">
          {callError}
        </Alert>
      )}
    </Modal>
  );
}

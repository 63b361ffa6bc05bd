// Staff cancel a live subscription (spec part 1 §2 "cancel-subscription modal", §4): a reason of at least 10
// characters and the warning; the server cancels it at its provider too (Stripe at period end, PayPal at
// once) before marking it cancelled.
import { Text } from '@mantine/core';
import type { AdminPurchaseRow } from '@pluma/common/admin-purchases';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CancelWithReasonModal } from '../../ui/CancelWithReasonModal';
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
  const cancel = useMutation({
    mutationFn: (reason: string) => updatePurchase({ purchase_id: row.purchase_id ?? 0, status: 'cancelled', cancel_reason: reason }),
    onSuccess: onCancelled,
  });
  const reasonError = serverFieldError(cancel.error, 'cancel_reason');

  return (
    <CancelWithReasonModal
      opened
      title={t('cancel.title', { id: row.purchase_id })}
      summary={
        <Text fw={600}>
          {row.product?.name ?? t('noProduct')} · {row.user?.email ?? t('noCustomer')}
        </Text>
      }
      warning={t('edit.warning')}
      reasonLabel={t('edit.reason')}
      reasonPlaceholder={t('edit.reasonPlaceholder')}
      reasonRequired={t('edit.reasonRequired')}
      reasonTestId="cancel-reason"
      confirmLabel={t('cancel.confirm')}
      keepLabel={t('cancel.keep')}
      pending={cancel.isPending}
      reasonError={reasonError}
      callError={cancel.error && !reasonError ? adminErrorText(cancel.error, t) : null}
      onConfirm={(reason) => cancel.mutate(reason)}
      onClose={onClose}
      data-testid="admin-cancel-modal"
    />
  );
}

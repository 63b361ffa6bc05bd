// Cancel a subscription (spec part 1 §4, §5): a reason of at least 10 characters ('You must include a
// cancel reason.') and the warning that benefits last until the next invoice date, no further charges are
// made and it cannot be undone. The page refreshes the lists after it (onCancelled).
import { Alert, Text, Textarea } from '@mantine/core';
import type { OwnPurchaseRecord } from '@pluma/common/checkout';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { cancelPurchase } from './billing-api';
import { billingErrorText, reasonFieldError } from './billing-errors';
import { cancelReasonValid } from './billing-view';

interface Props {
  purchase: OwnPurchaseRecord | null;
  onClose: () => void;
  onCancelled: (purchase: OwnPurchaseRecord) => void;
}

export function CancelSubscriptionModal({ purchase, onClose, onCancelled }: Props) {
  const { t } = useTranslation('billing');
  const [reason, setReason] = useState('');
  /** Shown once the user tried to confirm: no error while they are still typing. */
  const [tried, setTried] = useState(false);
  const cancel = useMutation({
    mutationFn: (input: { purchaseId: number; reason: string }) => cancelPurchase(input.purchaseId, input.reason),
    onSuccess: (cancelled) => {
      setReason('');
      setTried(false);
      onCancelled(cancelled);
    },
  });

  const close = () => {
    if (cancel.isPending) return;
    setReason('');
    setTried(false);
    cancel.reset();
    onClose();
  };

  const confirm = () => {
    setTried(true);
    if (!purchase || !cancelReasonValid(reason)) return;
    cancel.mutate({ purchaseId: purchase.purchase_id, reason: reason.trim() });
  };

  const localError = tried && !cancelReasonValid(reason) ? t('cancel.reasonRequired') : null;
  const fieldError = localError ?? (cancel.error ? reasonFieldError(cancel.error) : null);
  const callError = cancel.error && !reasonFieldError(cancel.error) ? billingErrorText(cancel.error, t) : null;

  return (
    <Modal
      opened={purchase !== null}
      onClose={close}
      title={t('cancel.title')}
      onConfirm={confirm}
      confirmLabel={t('cancel.confirm')}
      cancelLabel={t('cancel.keep')}
      confirmColor="red"
      confirmLoading={cancel.isPending}
      data-testid="cancel-subscription-modal"
    >
      {purchase?.product && (
        <Text fw={600} data-testid="cancel-product">
          {purchase.product.name}
        </Text>
      )}
      <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} data-testid="cancel-warning">
        {t('cancel.warning')}
      </Alert>
      <Textarea
        label={t('cancel.reasonLabel')}
        placeholder={t('cancel.reasonPlaceholder')}
        value={reason}
        onChange={(event) => setReason(event.currentTarget.value)}
        error={fieldError}
        minRows={3}
        autosize
        maxLength={2000}
        data-autofocus
        required
      />
      {callError && (
        <Alert color="red" role="alert" data-testid="cancel-error">
          {callError}
        </Alert>
      )}
    </Modal>
  );
}

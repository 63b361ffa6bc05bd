// Cancel a subscription (spec part 1 §4, §5): a reason of at least 10 characters ('You must include a
// cancel reason.') and the warning that benefits last until the next invoice date, no further charges are
// made and it cannot be undone. The page refreshes the lists after it (onCancelled).
import { Text } from '@mantine/core';
import type { OwnPurchaseRecord } from '@pluma/common/checkout';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CancelWithReasonModal } from '../../ui/CancelWithReasonModal';
import { productText } from '../pricing';
import { cancelPurchase } from './billing-api';
import { billingErrorText, reasonFieldError } from './billing-errors';

interface Props {
  purchase: OwnPurchaseRecord | null;
  onClose: () => void;
  onCancelled: (purchase: OwnPurchaseRecord) => void;
}

export function CancelSubscriptionModal({ purchase, onClose, onCancelled }: Props) {
  const { t } = useTranslation('billing');
  const { t: tApp } = useTranslation();
  const cancel = useMutation({
    mutationFn: (input: { purchaseId: number; reason: string }) => cancelPurchase(input.purchaseId, input.reason),
    onSuccess: onCancelled,
  });

  return (
    <CancelWithReasonModal
      opened={purchase !== null}
      title={t('cancel.title')}
      summary={
        purchase?.product && (
          <Text fw={600} data-testid="cancel-product">
            {productText(purchase.product, 'name', tApp)}
          </Text>
        )
      }
      warning={t('cancel.warning')}
      reasonLabel={t('cancel.reasonLabel')}
      reasonPlaceholder={t('cancel.reasonPlaceholder')}
      reasonRequired={t('cancel.reasonRequired')}
      confirmLabel={t('cancel.confirm')}
      keepLabel={t('cancel.keep')}
      pending={cancel.isPending}
      reasonError={reasonFieldError(cancel.error)}
      callError={cancel.error && !reasonFieldError(cancel.error) ? billingErrorText(cancel.error, t) : null}
      onConfirm={(reason) => purchase && cancel.mutate({ purchaseId: purchase.purchase_id, reason })}
      onClose={() => {
        // A failure shown this time is not shown when it opens again.
        cancel.reset();
        onClose();
      }}
      data-testid="cancel-subscription-modal"
    />
  );
}

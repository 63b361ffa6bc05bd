// "Extend access" (spec part 1 §6): more days on one purchase, from its expiry (or from today once past).
import { NumberInput, Text } from '@mantine/core';
import type { CustomerPurchase } from '@pluma/common/admin-users';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { extendAccess } from './admin-users-api';

export function ExtendAccessModal({ userId, purchase, onClose, onDone }: { userId: number; purchase: CustomerPurchase | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('admin-users');
  const handleError = useErrorHandler();
  const [days, setDays] = useState<number | ''>(30);
  const save = useMutation({
    mutationFn: () => extendAccess({ user_id: userId, purchase_id: purchase!.purchase_id, expiration_days: Number(days) }),
    onSuccess: () => {
      showSuccess(t('access.extended'));
      onDone();
      onClose();
    },
    onError: (error) => handleError(error),
  });
  return (
    <Modal
      opened={purchase != null}
      onClose={onClose}
      title={t('access.extendTitle')}
      onConfirm={() => save.mutate()}
      confirmLabel={t('access.extend')}
      confirmLoading={save.isPending}
      confirmDisabled={days === '' || days < 1}
      data-testid="extend-access-modal"
    >
      <Text size="sm" mb="sm">
        {t('access.extendHelp', { product: purchase?.product?.name ?? `#${purchase?.purchase_id ?? ''}` })}
      </Text>
      <NumberInput label={t('access.extraDays')} value={days} onChange={(v) => setDays(typeof v === 'number' ? v : '')} min={1} max={36500} allowDecimal={false} data-autofocus data-testid="extend-days" />
    </Modal>
  );
}

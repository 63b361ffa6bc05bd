// "Give access" (spec part 1 §4): choosing a product fills in the expiration days and the price; the gift
// toggle sets the total to 0 and hides the payment method. POST /users/giveAccess.
import { NumberInput, Select, Stack, Switch } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { useErrorHandler } from '../../ui/use-error-handler';
import { giveAccess, usePaymentMethods, useProductOptions } from './admin-users-api';
import { giveAccessTotal } from './customers-view';

export function GiveAccessModal({ userId, opened, onClose, onDone }: { userId: number; opened: boolean; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('admin-users');
  const handleError = useErrorHandler();
  const products = useProductOptions(opened);
  const methods = usePaymentMethods(opened);
  const [productId, setProductId] = useState<string | null>(null);
  const [gift, setGift] = useState(false);
  const [days, setDays] = useState<number | ''>('');
  const [total, setTotal] = useState<number | ''>(0);
  const [methodId, setMethodId] = useState<string | null>(null);
  const product = products.data?.find((p) => String(p.product_id) === productId);

  const save = useMutation({
    mutationFn: () =>
      giveAccess({
        user_id: userId,
        product_id: Number(productId),
        gift,
        expiration_days: days === '' ? null : days,
        total: gift ? 0 : total === '' ? 0 : total,
        payment_method_id: gift || !methodId ? null : Number(methodId),
      }),
    onSuccess: () => {
      showSuccess(t('access.added'));
      onDone();
      onClose();
    },
    onError: (error) => handleError(error),
  });

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('access.giveTitle')}
      onConfirm={() => save.mutate()}
      confirmLabel={t('access.give')}
      confirmLoading={save.isPending}
      confirmDisabled={!productId}
      data-testid="give-access-modal"
    >
      <Stack gap="sm">
        <Select
          label={t('access.product')}
          data={(products.data ?? []).map((p) => ({ value: String(p.product_id), label: p.name }))}
          value={productId}
          onChange={(value) => {
            setProductId(value);
            const chosen = products.data?.find((p) => String(p.product_id) === value);
            setDays(chosen?.expiration_days ?? '');
            setTotal(giveAccessTotal(chosen, gift));
          }}
          searchable
          nothingFoundMessage={t('access.noProducts')}
          data-testid="give-access-product"
        />
        <Switch
          label={t('access.gift')}
          checked={gift}
          onChange={(e) => {
            const next = e.currentTarget.checked;
            setGift(next);
            setTotal(giveAccessTotal(product, next));
          }}
          data-testid="give-access-gift"
        />
        <NumberInput label={t('access.expirationDays')} value={days} onChange={(v) => setDays(typeof v === 'number' ? v : '')} min={1} max={36500} allowDecimal={false} data-testid="give-access-days" />
        <NumberInput label={t('access.total')} value={total} onChange={(v) => setTotal(typeof v === 'number' ? v : '')} min={0} decimalScale={2} prefix="$" disabled={gift} data-testid="give-access-total" />
        {/* spec part 1 §4: a gift, or an amount of 0, hides the payment method. */}
        {!gift && total !== 0 && total !== '' && (
          <Select
            label={t('access.paymentMethod')}
            data={(methods.data ?? []).map((m) => ({ value: String(m.payment_method_id), label: m.name }))}
            value={methodId}
            onChange={setMethodId}
            clearable
            data-testid="give-access-method"
          />
        )}
      </Stack>
    </Modal>
  );
}

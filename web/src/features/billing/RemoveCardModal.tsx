// Removing a saved card (spec part 1 §7 DELETE /payment_sources/{id}): asked first, since the card is then
// no longer offered at checkout. A failure keeps the modal open with the server's words — the spec's
// "Deleting a payment source fails" text, or its refusal of a card that pays a subscription that will
// renew (docs/decisions.md "Saved cards on /billing") — and success is announced and the list reloaded.
import { Alert, Text } from '@mantine/core';
import type { PaymentSourceRecord } from '@pluma/common/checkout';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { Modal } from '../../ui/Modal';
import { removeSavedCard, SAVED_CARDS_KEY } from './billing-api';
import { cardRemovalErrorText } from './billing-errors';
import { cardBrandKey } from './billing-view';

interface Props {
  card: PaymentSourceRecord | null;
  onClose: () => void;
  onRemoved: () => void;
}

export function RemoveCardModal({ card, onClose, onRemoved }: Props) {
  const { t } = useTranslation('billing');
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: (paymentSourceId: string) => removeSavedCard(paymentSourceId),
    onSuccess: () => {
      showSuccess(t('cards.removed'));
      onRemoved();
      remove.reset();
    },
    // Refreshed either way: a card already gone elsewhere (404) disappears from the list too.
    onSettled: () => queryClient.invalidateQueries({ queryKey: SAVED_CARDS_KEY }),
  });

  const close = () => {
    if (remove.isPending) return;
    remove.reset();
    onClose();
  };

  const brand = card ? t(cardBrandKey(card.card_type)) : '';
  return (
    <Modal
      opened={card !== null}
      onClose={close}
      title={t('cards.removeTitle')}
      onConfirm={() => card && remove.mutate(card.payment_source_id)}
      confirmLabel={t('cards.removeConfirm')}
      cancelLabel={t('cards.keep')}
      confirmColor="red"
      confirmLoading={remove.isPending}
      data-testid="remove-card-modal"
    >
      {card && <Text data-testid="remove-card-question">{t('cards.removeQuestion', { brand, digits: card.last_digits })}</Text>}
      <Text size="sm" c="dimmed">
        {t('cards.subscriptionNote')}
      </Text>
      {remove.error && (
        <Alert color="red" role="alert" data-testid="remove-card-error">
          {cardRemovalErrorText(remove.error)}
        </Alert>
      )}
    </Modal>
  );
}

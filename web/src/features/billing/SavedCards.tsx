// The saved cards of /billing (spec part 1 §3 Payment source, §7 GET/DELETE /payment_sources): brand,
// "•••• 4242", expiry and a Remove button per card. Removing asks first (RemoveCardModal); the server
// refuses a card that pays a subscription that will renew, and that refusal is shown as it says it.
import { Alert, Button, Group, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import type { PaymentSourceRecord } from '@pluma/common/checkout';
import { IconBrandMastercard, IconBrandVisa, IconCreditCard } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSavedCards } from './billing-api';
import { billingErrorText } from './billing-errors';
import { cardBrandKey, cardExpiry, maskedCardNumber } from './billing-view';
import { RemoveCardModal } from './RemoveCardModal';

const BRAND_ICONS = { visa: IconBrandVisa, mastercard: IconBrandMastercard, other: IconCreditCard } as const;

function CardRow({ card, onRemove, t }: { card: PaymentSourceRecord; onRemove: (card: PaymentSourceRecord) => void; t: TFunction }) {
  const Icon = BRAND_ICONS[card.card_type];
  const brand = t(cardBrandKey(card.card_type));
  const expiry = cardExpiry(card);
  return (
    <Group component="li" justify="space-between" wrap="nowrap" gap="md" data-testid="saved-card">
      <Group gap="sm" wrap="nowrap">
        <Icon size={28} stroke={1.5} aria-hidden />
        <div>
          <Text fw={600}>
            {brand}{' '}
            <span aria-hidden>{maskedCardNumber(card.last_digits)}</span>
            <VisuallyHidden component="span">{t('cards.endingIn', { digits: card.last_digits })}</VisuallyHidden>
          </Text>
          {expiry && (
            <Text size="sm" c="dimmed">
              {t('cards.expires', { date: expiry })}
            </Text>
          )}
        </div>
      </Group>
      <Button size="xs" variant="subtle" color="red" onClick={() => onRemove(card)} aria-label={t('cards.removeLabel', { brand, digits: card.last_digits })}>
        {t('cards.remove')}
      </Button>
    </Group>
  );
}

export function SavedCards() {
  const { t } = useTranslation('billing');
  const cards = useSavedCards();
  const [removing, setRemoving] = useState<PaymentSourceRecord | null>(null);

  if (cards.isPending) return <Skeleton height={56} radius="md" data-testid="saved-cards-loading" />;
  if (cards.isError) {
    return (
      <Alert color="red" role="alert" title={t('cards.loadError')}>
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{billingErrorText(cards.error, t)}</Text>
          <Button size="xs" variant="default" onClick={() => void cards.refetch()}>
            {t('retry')}
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <>
      {cards.data.length === 0 ? (
        <Text c="dimmed" data-testid="saved-cards-empty">
          {t('cards.empty')}
        </Text>
      ) : (
        <Stack component="ul" gap="sm" p={0} m={0} style={{ listStyle: 'none' }} data-testid="saved-cards-list">
          {cards.data.map((card) => (
            <CardRow key={card.payment_source_id} card={card} onRemove={setRemoving} t={t} />
          ))}
        </Stack>
      )}
      <RemoveCardModal card={removing} onClose={() => setRemoving(null)} onRemoved={() => setRemoving(null)} />
    </>
  );
}

// The customer's saved cards (spec part 1 §3 Payment source: card_type and last_digits): pick one, or
// use a new card in Stripe's Payment Element. Arrow keys move between the choices (a radio group).
import { Group, Radio, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PaymentSourceRecord } from './checkout-api';

export const NEW_CARD = 'new';

interface SavedCardsProps {
  cards: PaymentSourceRecord[];
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
}

export function SavedCards({ cards, value, onChange, disabled }: SavedCardsProps) {
  const { t } = useTranslation('checkout');
  return (
    <Radio.Group value={value} onChange={onChange} label={t('payment.savedCards')} data-testid="saved-cards">
      <Stack gap="xs" mt="xs">
        {cards.map((card) => (
          <Radio.Card key={card.payment_source_id} value={card.payment_source_id} radius="md" p="sm" disabled={disabled} withBorder>
            <Group wrap="nowrap" gap="sm">
              <Radio.Indicator />
              <IconCreditCard size={20} aria-hidden />
              <div>
                <Text size="sm" fw={600}>
                  {t('payment.card', { brand: t(`payment.brand.${card.card_type}`), last4: card.last_digits })}
                </Text>
                {card.exp_month && card.exp_year ? (
                  <Text size="xs" c="var(--pluma-muted)">
                    {t('payment.expires', { month: String(card.exp_month).padStart(2, '0'), year: String(card.exp_year).slice(-2) })}
                  </Text>
                ) : null}
              </div>
            </Group>
          </Radio.Card>
        ))}
        <Radio.Card value={NEW_CARD} radius="md" p="sm" disabled={disabled} withBorder>
          <Group wrap="nowrap" gap="sm">
            <Radio.Indicator />
            <IconPlus size={20} aria-hidden />
            <Text size="sm" fw={600}>
              {t('payment.newCard')}
            </Text>
          </Group>
        </Radio.Card>
      </Stack>
    </Radio.Group>
  );
}

// The discount code box (spec part 1 §2 Checkout; §4 "Discount: validating, then set or reset"; §8
// "Discount error"). The server checks the code for this product and answers the price it gives, which
// the summary then shows (and the server charges).
import { Button, Group, Text, TextInput } from '@mantine/core';
import { centsToDollars } from '@pluma/common/rules/discounted-price';
import { IconCircleCheck, IconDiscount, IconX } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../i18n/format';
import { formatUsd } from '../pricing';
import { lookupDiscount, type DiscountLookup } from './checkout-api';
import { discountErrorText, type CheckoutText } from './checkout-errors';

interface DiscountBoxProps {
  productId: number;
  discount: DiscountLookup | null;
  onChange: (discount: DiscountLookup | null) => void;
  disabled?: boolean;
}

export function DiscountBox({ productId, discount, onChange, disabled }: DiscountBoxProps) {
  const { t } = useTranslation('checkout');
  const [code, setCode] = useState('');
  const [error, setError] = useState<CheckoutText | null>(null);
  const [checking, setChecking] = useState(false);

  const apply = async (event: FormEvent) => {
    event.preventDefault();
    const typed = code.trim();
    if (!typed || checking) return;
    setChecking(true);
    setError(null);
    try {
      onChange(await lookupDiscount(typed, productId));
      setCode('');
    } catch (failure) {
      // §4: a refused code resets the discount.
      onChange(null);
      setError(discountErrorText(failure));
    } finally {
      setChecking(false);
    }
  };

  if (discount) {
    const off = discount.is_percent ? `${formatNumber(discount.amount)}%` : formatUsd(centsToDollars(discount.price_cents - discount.discounted_price_cents));
    return (
      <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="discount-applied">
        {/* The text wraps; the button keeps its width (it was clipped to "Remov" at 390 px). */}
        <div style={{ flex: 1, minWidth: 0 }}>
          {/* The page's text colour (green text on white is below WCAG AA); the green check carries the colour. */}
          <Group gap={6} wrap="nowrap">
            <IconCircleCheck size={18} color="var(--mantine-color-green-7)" aria-hidden />
            <Text size="sm" fw={600} role="status">
              {t('discount.applied', { code: discount.code, off })}
            </Text>
          </Group>
          {discount.first_invoice_only && (
            <Text size="xs" c="var(--pluma-muted)">
              {t('discount.firstInvoiceOnly')}
            </Text>
          )}
        </div>
        <Button variant="subtle" size="xs" style={{ flexShrink: 0 }} leftSection={<IconX size={14} aria-hidden />} onClick={() => onChange(null)} disabled={disabled}>
          {t('discount.remove')}
        </Button>
      </Group>
    );
  }

  return (
    <form onSubmit={apply} noValidate data-testid="discount-form">
      <Group align="flex-start" gap="xs" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t('discount.label')}
          placeholder={t('discount.placeholder')}
          leftSection={<IconDiscount size={16} aria-hidden />}
          value={code}
          onChange={(event) => {
            setCode(event.currentTarget.value);
            setError(null);
          }}
          error={error ? t(error.key, error.params) : undefined}
          maxLength={50}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          disabled={disabled}
        />
        <Button type="submit" variant="default" mt={25} loading={checking} disabled={disabled || !code.trim()}>
          {t('discount.apply')}
        </Button>
      </Group>
    </form>
  );
}

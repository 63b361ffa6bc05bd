import { describe, expect, it } from 'vitest';
import { purchaseBadge } from './purchase-status';

describe('purchaseBadge', () => {
  const pending = { status: 'pending', payment_processor_id: null, subscription_id: null };

  it('says a pending purchase the provider knows about is processing: its payment or its subscription', () => {
    expect(purchaseBadge({ ...pending, payment_processor_id: 'pi_123' }).labelKey).toBe('thankyou.statuses.processing');
    expect(purchaseBadge({ ...pending, subscription_id: 'I-ABC' }).labelKey).toBe('thankyou.statuses.processing');
    expect(purchaseBadge({ ...pending, subscription_id: 'sub_123' }).labelKey).toBe('thankyou.statuses.processing');
  });

  it('says a pending purchase no provider knows about awaits payment', () => {
    expect(purchaseBadge(pending)).toEqual({ labelKey: 'thankyou.statuses.pending', color: 'yellow', status: 'pending' });
  });

  it('maps final statuses, and an unknown one to other', () => {
    expect(purchaseBadge({ ...pending, status: 'active' }).labelKey).toBe('thankyou.statuses.active');
    expect(purchaseBadge({ ...pending, status: 'succeeded' }).labelKey).toBe('thankyou.statuses.completed');
    expect(purchaseBadge({ ...pending, status: 'on-hold' }).labelKey).toBe('thankyou.statuses.other');
  });
});

// A record of the /admin table (GET /purchases/admin) for the web tests of this folder.
import type { AdminPurchaseRow } from '@pluma/common/admin-purchases';

export function buildAdminPurchaseRow(overrides: Partial<AdminPurchaseRow> = {}): AdminPurchaseRow {
  return {
    type: 'purchase',
    purchase_id: 11,
    invoice_id: null,
    user: { user_id: 5, name: 'Lucía', last_name: 'Pérez', email: 'lucia@example.com' },
    product: { product_id: 3, name: 'Pro plan' },
    status: 'active',
    amount: 25,
    total_payment: 1234.5,
    discount: null,
    payment_method: null,
    is_gift: false,
    expiration_days: 30,
    payment_processor_id: null,
    order_id: null,
    subscription_id: null,
    subscription_period: null,
    expiration_date: null,
    cancel_reason: null,
    cancelledAt: null,
    createdAt: '2026-11-03T10:05:00.000Z',
    updatedAt: '2026-11-03T10:05:00.000Z',
    abilities: { edit: true, cancel_subscription: false },
    ...overrides,
  };
}

// The exact JSON of the back-office customers calls (common/src/admin-users.ts); a test pins the keys.
import type { CustomerDetail, CustomerRow } from '@pluma/common/admin-users';
import { purchaseExpiryDate } from '@pluma/common/rules/purchase-expiry';
import type { StaffRole } from '@pluma/common/constants';
import type { CustomerListRow, CustomerRows } from './admin-service';
import { pictureUrl } from './present';

const staffRole = (role: string | null | undefined): StaffRole | null => (role === 'admin' || role === 'manager' ? role : null);

export function presentCustomerRow(row: CustomerListRow): CustomerRow {
  return {
    user_id: row.userId,
    name: row.name,
    last_name: row.lastName,
    email: row.email,
    phone: row.phone,
    role: staffRole(row.role),
    total_words: row.totalWords,
    last_used: row.lastUsedAt?.toISOString() ?? null,
    ltv: row.ltv,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCustomer(rows: CustomerRows): CustomerDetail {
  const { user } = rows;
  const role = staffRole(rows.staff?.role);
  return {
    user_id: user.userId,
    name: user.name,
    last_name: user.lastName,
    email: user.email,
    phone: user.phone,
    instagram: user.instagram,
    birthday: user.birthday,
    lang: user.lang === 'es' ? 'es' : 'en',
    signup_reason: user.signupReason,
    picture: pictureUrl(rows.picture),
    staff: rows.staff && role ? { staff_id: rows.staff.staffId, role } : null,
    available_words: user.availableWords,
    total_words: rows.totalWords,
    value: rows.value,
    total_purchases: rows.purchases.length,
    last_used: user.lastUsedAt?.toISOString() ?? null,
    purchases: rows.purchases.map(({ purchase: p, productName }) => ({
      purchase_id: p.purchaseId,
      status: p.status,
      product_id: p.productId,
      product: productName == null ? null : { name: productName },
      amount: p.amount,
      total_payment: p.totalPayment,
      is_gift: p.isGift,
      expiration_days: p.expirationDays,
      expires_at: purchaseExpiryDate(p).toISOString(),
      payment_method_id: p.paymentMethodId,
      payment_processor_id: p.paymentProcessorId,
      subscription_id: p.subscriptionId,
      cancel_reason: p.cancelReason,
      createdAt: p.createdAt.toISOString(),
    })),
    invoices: rows.invoices.map((i) => ({
      invoice_id: i.invoiceId,
      purchase_id: i.purchaseId,
      status: i.status,
      amount: i.amount,
      total_payment: i.totalPayment,
      payment_method_id: i.paymentMethodId,
      order_id: i.orderId,
      expiration_date: i.expirationDate?.toISOString() ?? null,
      createdAt: i.createdAt.toISOString(),
    })),
    createdAt: user.createdAt.toISOString(),
  };
}

// The back-office customers calls (spec part 1 §7): GET /users/admin/all, GET /users/{id}/admin, POST
// /users/admin/user, PUT and DELETE /users/admin/{id}, giveAccess (grant or extend), revokeAccess, the
// recovery email and link, and "log in as the user".
import type { CustomerDetail, CustomerFormInput, CustomerListQuery, CustomerListResponse } from '@pluma/common/admin-users';
import type { ExtendAccessRequest, GiveAccessRequest, PurchaseRecord } from '@pluma/common/purchases';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export const CUSTOMERS_KEY = ['admin', 'customers'] as const;
export const customerKey = (userId: number) => ['admin', 'customer', userId] as const;

export function useCustomers(query: CustomerListQuery) {
  return useQuery({
    queryKey: [...CUSTOMERS_KEY, query],
    queryFn: () => api.get<CustomerListResponse>('/users/admin/all', { query: query as Record<string, string | number | undefined> }),
    placeholderData: keepPreviousData,
  });
}

export function useCustomer(userId: number | null) {
  return useQuery({
    queryKey: customerKey(userId ?? 0),
    queryFn: () => api.get<CustomerDetail>(`/users/${userId}/admin`),
    enabled: userId != null,
  });
}

/** spec part 1 §4: an id that is not numeric creates (POST), a numeric one updates (PUT). */
export const saveCustomer = (userId: number | null, values: CustomerFormInput) =>
  userId == null ? api.post<CustomerDetail>('/users/admin/user', values) : api.put<CustomerDetail>(`/users/admin/${userId}`, values);

export const deleteCustomer = (userId: number) => api.delete<void>(`/users/admin/${userId}`);
export const giveAccess = (body: GiveAccessRequest) => api.post<PurchaseRecord>('/users/giveAccess', body);
export const extendAccess = (body: ExtendAccessRequest) => api.post<PurchaseRecord>('/users/giveAccess', body);
export const revokeAccess = (purchaseId: number) => api.put<PurchaseRecord>('/users/revokeAccess', { purchase_id: purchaseId });
export const sendRecoveryEmail = (email: string) => api.post<{ message: string }>('/users/sendResetPasswordLink', { email });
export const createResetLink = (email: string) => api.post<{ link: string }>('/users/resetPasswordLink', { email });
export const impersonate = (userId: number) => api.post<{ uid: string }>(`/users/admin/${userId}/impersonate`);

export interface ProductOption {
  product_id: number;
  name: string;
  price: number;
  sale_price: number | null;
  expiration_days: number | null;
}
export interface PaymentMethodOption {
  payment_method_id: number;
  name: string;
}

/** The operator's products for "give access" (GET /products, which staff may read). */
export function useProductOptions(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'product-options'],
    queryFn: async () => {
      const answer = await api.get<{ products: ProductOption[] } | ProductOption[]>('/products', { query: { page: 1 } });
      return Array.isArray(answer) ? answer : answer.products;
    },
    enabled,
  });
}

export function usePaymentMethods(enabled: boolean) {
  return useQuery({ queryKey: ['payment-methods'], queryFn: () => api.get<PaymentMethodOption[]>('/payment_method'), enabled });
}

/** The page a "log in as the user" window opens: the spec's ?uid= sign-in, in a tab of its own (view_as). */
export const impersonationUrl = (uid: string) => `/?uid=${encodeURIComponent(uid)}&view_as=1`;

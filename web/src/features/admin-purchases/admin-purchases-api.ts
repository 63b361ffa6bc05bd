// The /admin page's calls (spec part 1 §7): GET /purchases/admin (the table), PUT /purchases/admin (edit,
// cancel), POST/PUT /invoices/admin, and GET /products (the product select).
import type {
  AdminCreateInvoiceRequest,
  AdminPurchaseRow,
  AdminPurchasesPage,
  AdminUpdateInvoiceRequest,
  AdminUpdatePurchaseRequest,
  StatusTab,
  TypeTab,
} from '@pluma/common/admin-purchases';
import type { ProductList } from '@pluma/common/products';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

export interface AdminFilters {
  page: number;
  query: string;
  status: StatusTab;
  type: TypeTab;
  product_id: number | null;
  start_date: string | null;
  end_date: string | null;
}

export const ADMIN_RECORDS_KEY = ['admin-purchases'] as const;

/** The query string the filters make: empty values are left out (the server applies its defaults). */
export function filtersQuery(filters: AdminFilters): Record<string, string | number> {
  const query: Record<string, string | number> = { page: filters.page, status: filters.status, type: filters.type };
  if (filters.query.trim()) query.query = filters.query.trim();
  if (filters.product_id) query.product_id = filters.product_id;
  if (filters.start_date) query.start_date = filters.start_date;
  if (filters.end_date) query.end_date = filters.end_date;
  return query;
}

export function useAdminRecords(filters: AdminFilters) {
  return useQuery({
    queryKey: [...ADMIN_RECORDS_KEY, filters],
    queryFn: () => api.get<AdminPurchasesPage>('/purchases/admin', { query: filtersQuery(filters) }),
    // The table keeps the page it shows while the next one loads.
    placeholderData: keepPreviousData,
  });
}

/** The operator's products for the product select (at most 100, by name). */
export function useProductChoices() {
  return useQuery({
    queryKey: ['admin-purchases', 'products'],
    queryFn: () => api.get<ProductList>('/products', { query: { limit: 100, sort: 'name', direction: 'asc' } }),
    staleTime: 60_000,
  });
}

export const updatePurchase = (body: AdminUpdatePurchaseRequest) => api.put<AdminPurchaseRow>('/purchases/admin', body);
export const createInvoice = (body: Partial<AdminCreateInvoiceRequest>) => api.post<AdminPurchaseRow>('/invoices/admin', body);
export const updateInvoice = (body: AdminUpdateInvoiceRequest) => api.put<AdminPurchaseRow>('/invoices/admin', body);

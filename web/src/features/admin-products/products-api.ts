// The back office's product and discount calls (spec part 1 §7 GET/POST/PUT /products, GET /stripe/products,
// GET /stripe/prices/{stripe_product_id}, POST /purchases/test; Pluma's /discounts/admin).
import type { stripePriceRecord, stripeProductRecord } from '@pluma/common/checkout';
import type { PurchaseTestResponse } from '@pluma/common/admin-purchases';
import type { CreateDiscountRequest, DiscountList, DiscountRecord, UpdateDiscountRequest } from '@pluma/common/discounts';
import type { ManagedProduct, ProductList, ProductSortKey } from '@pluma/common/products';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../api/instance';
import type { productPayload, updatePayload } from './product-form';

export interface ProductListParams {
  query: string;
  page: number;
  sort: ProductSortKey;
  direction: 'asc' | 'desc';
}

export const PRODUCTS_KEY = ['admin', 'products'] as const;
export const DISCOUNTS_KEY = ['admin', 'discounts'] as const;

export function useProductList(params: ProductListParams) {
  return useQuery({
    queryKey: [...PRODUCTS_KEY, 'list', params],
    queryFn: () => api.get<ProductList>('/products', { query: { ...params, query: params.query || undefined } }),
    placeholderData: keepPreviousData,
  });
}

export function useProduct(productId: number | null) {
  return useQuery({
    queryKey: [...PRODUCTS_KEY, 'one', productId],
    queryFn: () => api.get<ManagedProduct>(`/products/${productId}`),
    enabled: productId !== null,
  });
}

export const createProduct = (body: ReturnType<typeof productPayload>) => api.post<ManagedProduct>('/products', body);
export const updateProduct = (body: ReturnType<typeof updatePayload>) => api.put<ManagedProduct>('/products', body);

export type StripeProduct = z.infer<typeof stripeProductRecord>;
export type StripePriceRecord = z.infer<typeof stripePriceRecord>;

export function useStripeProducts() {
  return useQuery({ queryKey: ['admin', 'stripe', 'products'], queryFn: () => api.get<StripeProduct[]>('/stripe/products'), retry: false });
}

export function useStripePrices(stripeProductId: string) {
  return useQuery({
    queryKey: ['admin', 'stripe', 'prices', stripeProductId],
    queryFn: () => api.get<StripePriceRecord[]>(`/stripe/prices/${encodeURIComponent(stripeProductId)}`),
    enabled: stripeProductId !== '',
    retry: false,
  });
}

/** The product's webhook test (sends a sample purchase to its webhook_url through the server's outbound guard). */
export const testProductWebhook = (productId: number) => api.post<PurchaseTestResponse>('/purchases/test', { product_id: productId });

export function useDiscountList(query: string, page: number) {
  return useQuery({
    queryKey: [...DISCOUNTS_KEY, query, page],
    queryFn: () => api.get<DiscountList>('/discounts/admin', { query: { query: query || undefined, page } }),
    placeholderData: keepPreviousData,
  });
}

export const createDiscount = (body: CreateDiscountRequest) => api.post<DiscountRecord>('/discounts/admin', body);
export const updateDiscount = (body: UpdateDiscountRequest) => api.put<DiscountRecord>('/discounts/admin', body);

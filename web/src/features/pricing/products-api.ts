// Products on sale (spec part 1 §7: GET /products/available → pricing list).
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/api-error';
import { api } from '../../api/instance';
import type { AvailableProduct } from '@pluma/common/products';

export type { AvailableProduct };

export async function fetchAvailableProducts(): Promise<AvailableProduct[]> {
  try {
    return await api.get<AvailableProduct[]>('/products/available');
  } catch (error) {
    // No product catalogue on this server (yet): nothing is on sale.
    if (error instanceof ApiError && error.status === 404) return [];
    throw error;
  }
}

export function useAvailableProducts() {
  return useQuery({ queryKey: ['products', 'available'], queryFn: fetchAvailableProducts, staleTime: 60_000 });
}

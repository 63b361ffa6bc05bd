// The analytics pages' calls (spec part 1 §7 GET /analytics/*; ai_usage beyond the spec), each for a date range.
import type { AiUsageAnalytics, CustomerList, CustomersAnalytics, IncomeAnalytics, PurchasesAnalytics } from '@pluma/common/analytics';
import type { DateRange } from '@pluma/common/rules/date-range';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';

const rangeQuery = (range: DateRange) => ({ start_date: range.start_date, end_date: range.end_date });

export function useIncome(range: DateRange) {
  return useQuery({ queryKey: ['analytics', 'income', range], queryFn: () => api.get<IncomeAnalytics>('/analytics/income', { query: rangeQuery(range) }) });
}

export function useAiUsage(range: DateRange) {
  return useQuery({ queryKey: ['analytics', 'ai_usage', range], queryFn: () => api.get<AiUsageAnalytics>('/analytics/ai_usage', { query: rangeQuery(range) }) });
}

export function usePurchasesByProduct(range: DateRange) {
  return useQuery({ queryKey: ['analytics', 'purchases', range], queryFn: () => api.get<PurchasesAnalytics>('/analytics/purchases', { query: rangeQuery(range) }) });
}

/** The counters, and one counter's customers when `list` is given (12 a page). */
export function useCustomers(range: DateRange, list: CustomerList | null = null, page = 1) {
  return useQuery({
    queryKey: ['analytics', 'customers', range, list, page],
    queryFn: () => api.get<CustomersAnalytics>('/analytics/customers', { query: { ...rangeQuery(range), ...(list ? { list, page } : {}) } }),
    placeholderData: list ? keepPreviousData : undefined,
  });
}

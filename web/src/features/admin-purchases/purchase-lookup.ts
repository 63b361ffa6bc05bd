// The purchase an invoice is being linked to (spec part 1 §4: "picking a purchase on an invoice fills in its
// amount"): looked up by its number through the /admin table's search ('#12' matches purchase 12), over
// every date, once typing pauses.
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import type { AdminPurchaseRow, AdminPurchasesPage } from '@pluma/common/admin-purchases';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/instance';
import { ADMIN_RECORDS_KEY } from './admin-purchases-api';

/** The first day the search covers: before any purchase this product can hold. */
const FIRST_DAY = '2000-01-01';

/** Tomorrow (UTC), so a purchase made today is inside the range whatever the time zone. */
function lastDay(now = new Date()): string {
  return new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
}

export async function fetchPurchaseByNumber(purchaseId: number): Promise<AdminPurchaseRow | null> {
  const page = await api.get<AdminPurchasesPage>('/purchases/admin', {
    query: { type: 'purchases', query: `#${purchaseId}`, start_date: FIRST_DAY, end_date: lastDay() },
  });
  return page.rows.find((row) => row.type === 'purchase' && row.purchase_id === purchaseId) ?? null;
}

/** The purchase with this number (null: none or not found), looked up once typing pauses. */
export function usePurchaseLookup(purchaseId: number | null) {
  const [id] = useDebouncedValue(purchaseId, SEARCH_DEBOUNCE_MS);
  const result = useQuery({
    queryKey: [...ADMIN_RECORDS_KEY, 'purchase-by-number', id],
    queryFn: () => fetchPurchaseByNumber(id as number),
    enabled: id !== null,
    staleTime: 30_000,
  });
  const settled = id === purchaseId && id !== null && result.isSuccess;
  return { purchase: settled ? result.data : null, notFound: settled && result.data === null };
}

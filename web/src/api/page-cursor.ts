// Deep pages that stay flat (issue 31 item 1; server/src/db/page-cursor.ts): the lists keep their page
// numbers, and the page before the one asked for, when it is still in the cache, gives its next_cursor so the
// server reads the next page from there instead of skipping the rows before it. Without it (a jump, a reload)
// the page is read by its number alone; the server ignores a cursor that does not fit.
import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** The cursor to send with `page`: the cached page `page - 1`'s next_cursor (its key from `keyOf`), if any. */
export function previousPageCursor(queryClient: QueryClient, page: number, keyOf: (page: number) => QueryKey): string | undefined {
  if (page <= 1) return undefined;
  const previous = queryClient.getQueryData<{ next_cursor?: string | null }>(keyOf(page - 1));
  return previous?.next_cursor ?? undefined;
}

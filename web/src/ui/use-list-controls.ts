// The controls every back-office list shares (spec part 1 §9: search 500 ms after the last key; pages): the
// search box's text, its debounced and trimmed query, and the page, which starts again at 1 whenever the
// query or any other filter changes.
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { useState } from 'react';

export interface ListControls {
  /** What the search box shows. */
  search: string;
  setSearch: (text: string) => void;
  /** The search as the list asks for it: trimmed, 500 ms after the last change. */
  query: string;
  page: number;
  setPage: (page: number) => void;
  /** How many pages `total` rows fill (at least one). */
  pageCount: (total: number | undefined) => number;
}

/** `filters`: the list's other filters (sort, dates, tabs…); compared by value, so a new object each render is fine. */
export function useListControls(pageSize: number, filters: unknown = null): ListControls {
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [page, setPage] = useState(1);
  // Reset while rendering (React's "adjusting state when a prop changes"), so no stale page is ever fetched.
  const filterKey = JSON.stringify([query, filters]);
  const [lastFilterKey, setLastFilterKey] = useState(filterKey);
  if (filterKey !== lastFilterKey) {
    setLastFilterKey(filterKey);
    if (page !== 1) setPage(1);
  }
  return { search, setSearch, query, page, setPage, pageCount: (total) => listPageCount(total ?? 0, pageSize) };
}

export const listPageCount = (total: number, pageSize: number) => Math.max(1, Math.ceil(total / pageSize));

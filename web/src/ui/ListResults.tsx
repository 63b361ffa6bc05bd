// What a list shows in place of its rows, in one order for every list: a skeleton while the first page
// loads, the failure once it failed, the empty text when there are no rows, else the rows themselves
// (the page kept while the next one loads: the queries keep their previous data).
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';

interface ListResultsProps<T> {
  list: UseQueryResult<T>;
  isEmpty: (data: T) => boolean;
  loading: ReactNode;
  /** Shown when the list failed (e.g. a LoadErrorAlert). */
  failed: ReactNode;
  empty: ReactNode;
  children: (data: T) => ReactNode;
}

export function ListResults<T>({ list, isEmpty, loading, failed, empty, children }: ListResultsProps<T>) {
  if (list.isPending) return loading;
  if (list.isError) return failed;
  return isEmpty(list.data) ? empty : children(list.data);
}

// A list's page buttons, shown only when there is more than one page.
import { Pagination, type PaginationProps } from '@mantine/core';

export function ListPagination(props: PaginationProps) {
  return props.total > 1 ? <Pagination {...props} /> : null;
}

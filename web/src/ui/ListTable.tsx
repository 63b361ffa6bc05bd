// A list's table: scrolls sideways below `minWidth` on narrow screens, with its header cells and rows.
import { Table, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

interface ListTableProps extends Omit<TableProps, 'children'> {
  minWidth: number;
  /** The header cells (Table.Th). */
  head: ReactNode;
  /** The rows (Table.Tr). */
  children: ReactNode;
  'data-testid'?: string;
}

export function ListTable({ minWidth, head, children, ...table }: ListTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

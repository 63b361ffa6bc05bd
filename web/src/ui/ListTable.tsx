// A list's table: scrolls sideways below `minWidth` on narrow screens, with its header cells and rows.
// `stacked`: on phones each row becomes a card of labelled lines instead (cells carry `data-label`,
// e.g. through WholeTd / LabelledTd), so nothing hides off the right edge.
import { Table, type TableProps, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './ListTable.module.css';

interface ListTableProps extends Omit<TableProps, 'children'> {
  minWidth: number;
  /** The header cells (Table.Th). */
  head: ReactNode;
  /** The rows (Table.Tr). */
  children: ReactNode;
  /** On phones, each row as a card (its cells' `data-label` names them). */
  stacked?: boolean;
  'data-testid'?: string;
}

export function ListTable({ minWidth, head, children, stacked = false, ...table }: ListTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth} className={stacked ? classes.stacked : undefined}>
      <Table {...table}>
        <Table.Thead>
          <Table.Tr>{head}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

interface LabelledTdProps extends TableTdProps {
  /** The column's name, shown before the value when a stacked table is a card (phones). */
  label?: string;
}

/** A cell of a stacked table: its column's name goes with it. */
export function LabelledTd({ label, ...props }: LabelledTdProps) {
  return <Table.Td data-label={label} {...props} />;
}

/**
 * A cell shown whole at any width: a date, a status badge, action buttons. It never wraps, and its badge
 * or buttons never shrink into an ellipsis; the table gives it the room (or scrolls).
 */
export function WholeTd({ className, ...props }: LabelledTdProps) {
  return <LabelledTd className={className ? `${classes.whole} ${className}` : classes.whole} {...props} />;
}

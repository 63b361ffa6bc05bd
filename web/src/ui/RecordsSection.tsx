// A titled card listing records in a table (the customer's purchases, their invoices…): the title with an
// optional action beside it, then the table, or the empty text when there is nothing to list.
import { Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ListTable } from './ListTable';

interface RecordsSectionProps {
  title: string;
  /** Beside the title (e.g. Add). */
  action?: ReactNode;
  isEmpty: boolean;
  emptyText: string;
  /** The header cells (Table.Th). */
  head: ReactNode;
  /** The rows (Table.Tr). */
  children: ReactNode;
  /** Narrower screens scroll the table sideways below this width. */
  minWidth: number;
  /** On phones, each row as a card of labelled lines (ListTable's `stacked`). */
  stacked?: boolean;
  tableTestId?: string;
}

export function RecordsSection({ title, action, isEmpty, emptyText, head, children, minWidth, stacked, tableTestId }: RecordsSectionProps) {
  return (
    <Card withBorder padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {action}
      </Group>
      {isEmpty ? (
        <Text c="dimmed" size="sm">
          {emptyText}
        </Text>
      ) : (
        <ListTable minWidth={minWidth} stacked={stacked} head={head} data-testid={tableTestId}>
          {children}
        </ListTable>
      )}
    </Card>
  );
}

// A sortable table header: the column's label and an arrow (both ways when not sorted by it), announced
// with aria-sort; a click asks the page to sort by it.
import { Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';

interface SortableThProps {
  label: string;
  /** The list is sorted by this column. */
  active: boolean;
  direction: 'asc' | 'desc';
  onSort: () => void;
  /** Numbers align right. */
  numeric?: boolean;
  fw?: number;
  'data-testid'?: string;
}

export function SortableTh({ label, active, direction, onSort, numeric = false, fw = 700, 'data-testid': testId }: SortableThProps) {
  const Icon = active ? (direction === 'asc' ? IconChevronUp : IconChevronDown) : IconSelector;
  return (
    <Table.Th aria-sort={active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none'} ta={numeric ? 'right' : undefined}>
      <UnstyledButton onClick={onSort} data-testid={testId}>
        <Group gap={4} wrap="nowrap" justify={numeric ? 'flex-end' : undefined}>
          <Text fw={fw} size="sm">
            {label}
          </Text>
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

// The rows a table shows while its first page loads (skeleton rows) or when it has no rows (one centred,
// dimmed line), across all its columns.
import { Skeleton, Table, Text } from '@mantine/core';

interface TableStateRowsProps {
  pending: boolean;
  empty: boolean;
  columns: number;
  emptyText: string;
  /** How many skeleton rows stand in for the first page. */
  skeletonRows?: number;
  emptyTestId?: string;
}

export function TableStateRows({ pending, empty, columns, emptyText, skeletonRows = 1, emptyTestId }: TableStateRowsProps) {
  return (
    <>
      {pending &&
        Array.from({ length: skeletonRows }, (_, i) => (
          <Table.Tr key={i}>
            <Table.Td colSpan={columns}>
              <Skeleton height={20} />
            </Table.Td>
          </Table.Tr>
        ))}
      {empty && (
        <Table.Tr>
          <Table.Td colSpan={columns}>
            <Text ta="center" c="dimmed" py="md" data-testid={emptyTestId}>
              {emptyText}
            </Text>
          </Table.Td>
        </Table.Tr>
      )}
    </>
  );
}

// A total split into parts (income by payment method, an organization's income by product): a table of
// each part's name, count and money beside a donut of its share with the total in the middle, or the
// empty text when nothing was paid in the dates.
import { DonutChart } from './charts';
import { Box, Group, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ListTable } from '../../ui/ListTable';
import { chartColor, formatMoney, formatNumber } from './analytics-view';

export interface SharePart {
  key: string | number;
  label: string;
  count: number;
  /** Dollars. */
  total: number;
}

interface ShareBreakdownProps {
  parts: SharePart[];
  /** Dollars, shown in the donut's middle. */
  total: number;
  /** The columns' headers: the part, its count, its money. */
  headers: [string, string, string];
  /** The donut's name for screen readers. */
  chartLabel: string;
  emptyText: string;
  testIds: { table: string; donut: string; empty: string };
}

export function ShareBreakdown({ parts, total, headers, chartLabel, emptyText, testIds }: ShareBreakdownProps) {
  const { i18n } = useTranslation();
  if (parts.length === 0)
    return (
      <Text c="dimmed" data-testid={testIds.empty}>
        {emptyText}
      </Text>
    );
  const coloured = parts.map((part, i) => ({ ...part, color: chartColor(i) }));
  return (
    <Group align="center" gap="xl" wrap="wrap">
      {/* The table takes the room the donut leaves, scrolling sideways when that is under its width. */}
      <Box style={{ flex: 1, minWidth: 0 }}>
        <ListTable minWidth={320} data-testid={testIds.table} head={headers.map((header) => <Table.Th key={header}>{header}</Table.Th>)}>
          {coloured.map((part) => (
            <Table.Tr key={part.key}>
              <Table.Td>{part.label}</Table.Td>
              <Table.Td>{formatNumber(part.count, i18n.language)}</Table.Td>
              <Table.Td>{formatMoney(part.total)}</Table.Td>
            </Table.Tr>
          ))}
        </ListTable>
      </Box>
      <DonutChart
        data={coloured.map((part) => ({ name: part.label, value: part.total, color: part.color }))}
        valueFormatter={formatMoney}
        withTooltip
        tooltipDataSource="segment"
        chartLabel={formatMoney(total)}
        aria-label={chartLabel}
        role="img"
        data-testid={testIds.donut}
      />
    </Group>
  );
}

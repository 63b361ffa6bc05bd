// A list shown as cards (organizations, groups): three across on wide screens, two on tablets, one on
// phones; skeleton cards of the cards' height while the first page loads, the empty text when there is
// nothing to show.
import { SimpleGrid, Skeleton, Text } from '@mantine/core';
import { Children, type ReactNode } from 'react';

const COLUMNS = { base: 1, sm: 2, lg: 3 };

interface CardGridProps {
  pending: boolean;
  /** Loaded, and nothing to show. */
  empty: boolean;
  emptyText: string;
  /** The skeleton cards' height (the cards' own). */
  cardHeight: number;
  testIds: { loading: string; empty: string };
  /** The cards. */
  children: ReactNode;
}

export function CardGrid({ pending, empty, emptyText, cardHeight, testIds, children }: CardGridProps) {
  if (pending)
    return (
      <SimpleGrid cols={COLUMNS} data-testid={testIds.loading}>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} height={cardHeight} radius="md" />
        ))}
      </SimpleGrid>
    );
  if (empty)
    return (
      <Text c="dimmed" py="lg" data-testid={testIds.empty}>
        {emptyText}
      </Text>
    );
  // No cards (e.g. the list failed before it loaded): no grid either.
  return Children.count(children) > 0 ? <SimpleGrid cols={COLUMNS}>{children}</SimpleGrid> : null;
}

// A titled section of an analytics page (income by method, an organization's purchases by product, its
// monthly chart): a card named by its title for screen readers.
import { Card, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function FigureCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder radius="lg" padding="lg" component="section" aria-label={title}>
      <Title order={2} fz="lg" mb="md">
        {title}
      </Title>
      {children}
    </Card>
  );
}

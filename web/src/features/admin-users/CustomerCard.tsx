// The customer card (spec part 1 §2 "Customer detail"; part 2 §2 "User detail: customer card"): picture,
// name with an optional badge, the fields the page shows, an optional action beside them and buttons under
// them. Shared by /admin/users/{id} and the organization's user detail.
import { Avatar, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function CustomerField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

interface CustomerCardProps {
  name: string;
  picture: string | null;
  badge?: ReactNode;
  /** The fields (CustomerField) under the name. */
  children: ReactNode;
  /** Beside the fields (e.g. Edit). */
  aside?: ReactNode;
  /** Buttons under the card's fields (recovery, log in as...). */
  actions?: ReactNode;
  'data-testid'?: string;
}

export function CustomerCard({ name, picture, badge, children, aside, actions, 'data-testid': testId = 'profile-card' }: CustomerCardProps) {
  return (
    <Card withBorder padding="lg" data-testid={testId}>
      <Group align="flex-start" gap="lg" wrap="wrap">
        <Avatar src={picture} alt={name} size={72} radius="xl">
          {name.slice(0, 1)}
        </Avatar>
        <Stack gap="xs" style={{ flex: '1 1 260px' }}>
          <Group gap="xs">
            <Title order={2} fz="lg">
              {name}
            </Title>
            {badge}
          </Group>
          {children}
        </Stack>
        {aside}
      </Group>
      {actions && (
        <Group gap="sm" mt="md" wrap="wrap">
          {actions}
        </Group>
      )}
    </Card>
  );
}

// The centred notice of the paid-feature screens (out of credits, /sorry): icon, title, text, then the
// way forward and 'Return to Home'.
import { Button, Group, Paper, Stack, ThemeIcon, Title, type PaperProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

interface AccessNoticeProps {
  icon: ReactNode;
  iconColor?: string;
  title: string;
  /** The main button: where the user can get what they lack. */
  action: { to: string; label: string };
  testId: string;
  mt?: PaperProps['mt'];
  children: ReactNode;
}

export function AccessNotice({ icon, iconColor, title, action, testId, mt, children }: AccessNoticeProps) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} maw={640} mx="auto" mt={mt} data-testid={testId}>
      <Stack align="center" ta="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light" color={iconColor} aria-hidden>
          {icon}
        </ThemeIcon>
        <Title order={1} fz={{ base: 22, sm: 26 }}>
          {title}
        </Title>
        {children}
        <Group justify="center" gap="sm" mt="sm">
          <Button component={Link} to={action.to} size="md">
            {action.label}
          </Button>
          <Button component={Link} to="/" variant="default" size="md">
            {t('access.returnHome')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

// Frame of the checkout and thank-you pages (standalone routes, whatever the session): logo home, the
// language switch, a centred column.
import { Anchor, Box, Container, Group } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { Link } from 'react-router';
import { Logo } from '../../ui/Logo';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { PageLoader } from '../../ui/PageLoader';
import { RouteErrorBoundary } from '../../ui/RouteErrorBoundary';

export function CheckoutLayout({ children, size = 'lg' }: { children: ReactNode; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <Box mih="100dvh" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))">
      <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid light-dark(var(--mantine-color-gray-3), var(--mantine-color-dark-4))' }}>
        <Container size="lg" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/" underline="never" c="inherit">
              <Logo height={30} />
            </Anchor>
            <LanguageSwitch />
          </Group>
        </Container>
      </Box>
      <Container size={size} py={{ base: 'lg', sm: 40 }} component="main">
        <RouteErrorBoundary>
          <Suspense fallback={<PageLoader />}>{children}</Suspense>
        </RouteErrorBoundary>
      </Container>
    </Box>
  );
}

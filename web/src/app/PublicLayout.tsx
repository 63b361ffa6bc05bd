// Frame of the public pages for signed-out visitors (pricing, privacy policy).
import { Anchor, Box, Button, Container, Group } from '@mantine/core';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from '../ui/LanguageSwitch';
import { PageLoader } from '../ui/PageLoader';
import { RouteErrorBoundary } from '../ui/RouteErrorBoundary';
import { useAppConfig } from '../platform/config/app-config';
import { authPath } from '../platform/session/paths';
import { Logo } from '../ui/Logo';

export function PublicLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const landing = config.on('landing_enabled');
  return (
    <Box mih="100dvh" bg="light-dark(var(--mantine-color-gray-0), var(--mantine-color-dark-8))" style={{ display: 'flex', flexDirection: 'column' }}>
      <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid light-dark(var(--mantine-color-gray-3), var(--mantine-color-dark-4))' }}>
        <Container size="lg" py="sm">
          <Group justify="space-between" wrap="nowrap">
            <Anchor component={Link} to="/" underline="never" c="inherit">
              <Logo height={30} />
            </Anchor>
            <Group gap="xs" wrap="nowrap">
              <LanguageSwitch />
              <Button component={Link} to={authPath('login', landing)} variant="default" size="sm" visibleFrom="xs">
                {t('auth.loginButton')}
              </Button>
              {config.on('signup_enabled') && (
                <Button component={Link} to={authPath('signup', landing)} size="sm">
                  {t('public.getStarted')}
                </Button>
              )}
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size="lg" py={{ base: 'lg', sm: 48 }} component="main" style={{ flex: 1, width: '100%' }}>
        <RouteErrorBoundary>
          <Suspense fallback={<PageLoader />}>{children}</Suspense>
        </RouteErrorBoundary>
      </Container>
      <Box component="footer" py="lg">
        <Group justify="center" gap="md">
          <Anchor component={Link} to="/privacidad" size="sm" c="var(--pluma-muted)">
            {t('legal.privacyLink')}
          </Anchor>
          <Anchor component={Link} to="/pricing" size="sm" c="var(--pluma-muted)">
            {t('pricing.title')}
          </Anchor>
        </Group>
      </Box>
    </Box>
  );
}

// Frame of the sign-in screens: brand panel (wide screens), language switch, the form, privacy link.
import { Anchor, Box, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CONFIG_KEYS } from '@pluma/common/config-keys';
import { useAppConfig } from '../../platform/config/app-config';
import { Logo } from '../../ui/Logo';
import { LanguageSwitch } from '../../ui/LanguageSwitch';
import { usePageTitle } from '../../ui/use-page-title';
import classes from './AuthLayout.module.css';

interface AuthLayoutProps {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  testId?: string;
}

export function AuthLayout({ title, subtitle, children, testId }: AuthLayoutProps) {
  const { t } = useTranslation();
  const config = useAppConfig();
  const appName = config.get('app_name');
  // The shipped tagline is translated; one an admin wrote is shown as written.
  const tagline = config.get('tagline');
  const taglineText = tagline === CONFIG_KEYS.tagline.default ? t('auth.defaultTagline') : tagline;
  usePageTitle(title);
  return (
    <div className={classes.page}>
      <aside className={classes.brand} aria-label={appName}>
        <Link to="/" className={classes.brandLink}>
          <span className={classes.brandName}>{appName}</span>
        </Link>
        <Stack gap="xl">
          <p className={classes.brandTitle}>{t('auth.brandTitle')}</p>
          <Stack gap="md">
            {(['auth.brandPoint1', 'auth.brandPoint2', 'auth.brandPoint3'] as const).map((key) => (
              <div key={key} className={classes.brandPoint}>
                <IconCircleCheck size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                <span>{t(key)}</span>
              </div>
            ))}
          </Stack>
        </Stack>
        <Text size="sm" c="rgba(255,255,255,0.85)">
          {taglineText}
        </Text>
      </aside>
      <div className={classes.main}>
        <div className={classes.topBar}>
          <Box hiddenFrom="md">
            <Link to="/" className={classes.brandLink}>
              <Logo height={28} />
            </Link>
          </Box>
          <Box ml="auto">
            <LanguageSwitch />
          </Box>
        </div>
        <main className={classes.formArea}>
          <div className={classes.form} data-testid={testId}>
            <Stack gap={6} mb="xl">
              <Title order={1} fz={28} style={{ letterSpacing: '-0.01em' }}>
                {title}
              </Title>
              {subtitle && <Text c="var(--pluma-muted)">{subtitle}</Text>}
            </Stack>
            {children}
          </div>
        </main>
        <footer className={classes.footer}>
          <Anchor component={Link} to="/privacidad" c="var(--pluma-muted)">
            {t('legal.privacyLink')}
          </Anchor>
          <Text size="sm" c="var(--pluma-muted)">
            © {new Date().getFullYear()} {appName}
          </Text>
        </footer>
      </div>
    </div>
  );
}

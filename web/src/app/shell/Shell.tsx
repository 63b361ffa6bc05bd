// The signed-in shell (spec part 2 §2): sidebar, mobile navigation (burger under sm), breadcrumb bar, content.
import { AppShell, Burger } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PageLoader } from '../../ui/PageLoader';
import { RouteErrorBoundary } from '../../ui/RouteErrorBoundary';
import { useCurrentUser } from '../../platform/session/session-context';
import { BreadcrumbBar } from './BreadcrumbBar';
import { Logo } from '../../ui/Logo';
import classes from './Shell.module.css';
import { ShellWidgets } from './ShellWidgets';
import { Sidebar } from './Sidebar';

export function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const { pathname } = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  // The banner slot's height, for screens that fill the viewport (the chat) to leave it room.
  const banner = useRef<HTMLDivElement>(null);
  const [bannerHeight, setBannerHeight] = useState(0);
  useEffect(() => {
    const element = banner.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setBannerHeight(element.offsetHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <AppShell
      header={{ height: { base: 56, sm: 0 } }}
      navbar={{ width: 272, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={0}
    >
      <AppShell.Header hiddenFrom="sm" className={classes.header}>
        <Burger opened={opened} onClick={toggle} size="sm" aria-label={opened ? t('shell.closeMenu') : t('shell.openMenu')} aria-expanded={opened} aria-controls="app-sidebar" />
        <Link to="/" className={classes.logoLink} onClick={close}>
          <Logo height={28} />
        </Link>
      </AppShell.Header>
      <AppShell.Navbar id="app-sidebar" aria-label={t('shell.navigation')} data-testid="app-sidebar">
        <Sidebar user={user} onNavigate={close} />
      </AppShell.Navbar>
      <AppShell.Main className={classes.main} style={{ '--pluma-banner-height': `${bannerHeight}px` } as CSSProperties}>
        <div ref={banner} className={classes.banner}>
          <ShellWidgets slot="banner" />
        </div>
        <div className={classes.content} style={{ padding: 'var(--pluma-page-padding)' }}>
          <BreadcrumbBar />
          <RouteErrorBoundary resetKey={pathname}>
            <Suspense fallback={<PageLoader />}>{children}</Suspense>
          </RouteErrorBoundary>
        </div>
        <ShellWidgets slot="overlay" />
      </AppShell.Main>
    </AppShell>
  );
}

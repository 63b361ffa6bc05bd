// Sticky top bar: logo, section anchors, language switch, log in and Get Started (spec part 2 §2).
// On a phone the section anchors go; Log in stays (returning users must not have to hunt for it).
import { Anchor, Button, Container, Group } from '@mantine/core';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { LandingBrand } from './LandingBrand';
import { LanguageSwitchLink } from './LanguageSwitchLink';
import type { LandingContent } from './landing-content';
import classes from './landing.module.css';

/** What the page hands its top bar and its footer alike. */
export interface LandingBarProps {
  content: LandingContent;
  lang: 'en' | 'es';
  homePath: string;
  t: TFunction<'landing'>;
}

export function LandingHeader({ content, lang, homePath, t }: LandingBarProps) {
  return (
    <header className={classes.header}>
      <Container size="lg" className={classes.headerInner}>
        <LandingBrand appName={content.appName} logoSrc={content.logoSrc} homePath={homePath} label={t('nav.home', { app: content.appName })} />
        <Group gap="lg" wrap="nowrap" component="nav" aria-label={content.appName} className={classes.headerNav}>
          <Anchor href="#features" className={`${classes.navLink} ${classes.desktopOnly}`}>
            {t('nav.features')}
          </Anchor>
          <Anchor href="#about" className={`${classes.navLink} ${classes.desktopOnly}`}>
            {t('nav.about')}
          </Anchor>
          {content.spanishEnabled && <LanguageSwitchLink lang={lang} className={classes.navLink} iconOnlyOnPhone t={t} />}
          <Anchor component={Link} to="/auth/login" className={classes.navLink}>
            {t('nav.login')}
          </Anchor>
          <Button component={Link} to={content.getStartedPath} radius="xl" className={classes.headerCta}>
            {t('nav.getStarted')}
          </Button>
        </Group>
      </Container>
    </header>
  );
}

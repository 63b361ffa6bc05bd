// Footer: brand, copyright, privacy policy (/privacidad), contact and language switch.
import { Anchor, Container, Group, Text } from '@mantine/core';
import { Link } from 'react-router';
import { LandingBrand } from './LandingBrand';
import type { LandingBarProps } from './LandingHeader';
import { LanguageSwitchLink } from './LanguageSwitchLink';
import classes from './landing.module.css';

export function LandingFooter({ content, lang, homePath, t }: LandingBarProps) {
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="md">
          <Group gap="md">
            <LandingBrand appName={content.appName} logoSrc={content.logoSrc} homePath={homePath} label={t('nav.home', { app: content.appName })} />
            <Text size="sm" className={classes.muted}>
              © {new Date().getFullYear()} {content.appName}. {t('footer.rights')}
            </Text>
          </Group>
          <Group gap="lg">
            <Anchor component={Link} to="/privacidad" className={classes.footerLink}>
              {t('footer.privacy')}
            </Anchor>
            {content.supportEmail && (
              <Anchor href={`mailto:${content.supportEmail}`} className={classes.footerLink}>
                {t('footer.contact')}
              </Anchor>
            )}
            {content.spanishEnabled && <LanguageSwitchLink lang={lang} className={classes.footerLink} t={t} />}
          </Group>
        </Group>
      </Container>
    </footer>
  );
}

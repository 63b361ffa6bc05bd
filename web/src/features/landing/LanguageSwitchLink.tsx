// Link between the English landing (/) and the Spanish one (/latam). Choosing a language here is the
// visitor's choice, so it changes and keeps the app language too (spec part 1 §9).
import { Anchor } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { applyLanguage } from '../../i18n';
import classes from './landing.module.css';

interface LanguageSwitchLinkProps {
  lang: 'en' | 'es';
  className?: string;
  /** Only the icon on a phone (the top bar must also fit Log in and Get Started); the label stays for screen readers. */
  iconOnlyOnPhone?: boolean;
  t: TFunction<'landing'>;
}

export function LanguageSwitchLink({ lang, className, iconOnlyOnPhone = false, t }: LanguageSwitchLinkProps) {
  const target = lang === 'es' ? 'en' : 'es';
  return (
    <Anchor
      component={Link}
      to={target === 'es' ? '/latam' : '/'}
      lang={target}
      className={className}
      aria-label={t('nav.switchLanguageLabel')}
      onClick={() => applyLanguage(target)}
      style={{ display: 'inline-flex', alignItems: 'center', gap: 4 }}
    >
      <IconLanguage size={16} aria-hidden="true" />
      <span className={iconOnlyOnPhone ? classes.phoneHidden : undefined}>{t('nav.switchLanguage')}</span>
    </Anchor>
  );
}

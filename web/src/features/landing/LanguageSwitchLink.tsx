// Link between the English landing (/) and the Spanish one (/latam). Choosing a language here is the
// visitor's choice, so it changes and keeps the app language too (spec part 1 §9).
import { Anchor } from '@mantine/core';
import { IconLanguage } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { applyLanguage } from '../../i18n';

interface LanguageSwitchLinkProps {
  lang: 'en' | 'es';
  className?: string;
  t: TFunction<'landing'>;
}

export function LanguageSwitchLink({ lang, className, t }: LanguageSwitchLinkProps) {
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
      {t('nav.switchLanguage')}
    </Anchor>
  );
}

// Public landing page, driven by the app configuration (spec part 2 §2 "Landing and walkthrough").
// `/` renders it in the saved language (English by default), `/latam` in Spanish, which also sets the app language to es.
import { Center, Loader } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppConfigQuery } from '../../platform/config/app-config';
import { applyLanguage } from '../../i18n';
import { useDocumentTitle } from '../../ui/use-page-title';
import { AboutSection } from './AboutSection';
import { BenefitsSection } from './BenefitsSection';
import { CallToActionSection } from './CallToActionSection';
import { FeaturesSection } from './FeaturesSection';
import { HeroSection } from './HeroSection';
import { LandingFooter } from './LandingFooter';
import { LandingHeader } from './LandingHeader';
import { landingContent } from './landing-content';
import classes from './landing.module.css';

export default function LandingPage({ lang }: { lang: 'en' | 'es' }) {
  const { t, i18n } = useTranslation('landing', { lng: lang });
  const config = useAppConfigQuery();
  // A failed config request still shows the landing, with the shipped defaults.
  const content = useMemo(() => landingContent(config.data, lang, (key) => t(`defaults.${key}`)), [config.data, lang, t]);
  const homePath = lang === 'es' ? '/latam' : '/';

  // spec part 2 §2: the Spanish landing sets the language to es (kept, spec part 1 §9, so the auth
  // screens it leads to stay Spanish after a reload).
  useEffect(() => {
    if (lang === 'es' && i18n.language !== 'es') applyLanguage('es');
  }, [lang, i18n]);

  // spec part 2 §2: the Spanish landing's page title is the "10X faster authentic content" headline.
  useDocumentTitle(lang === 'es' ? `${t('headline')} | ${content.appName}` : content.title);

  // The page is in `lang` whatever the app language is; screen readers need to know (restored on leave).
  useEffect(() => {
    const previous = document.documentElement.lang;
    document.documentElement.lang = lang;
    return () => {
      document.documentElement.lang = previous;
    };
  }, [lang]);

  if (config.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }

  return (
    <div className={`${classes.page} ${content.bgClassName}`}>
      <LandingHeader content={content} lang={lang} homePath={homePath} t={t} />
      <main>
        <HeroSection content={content} t={t} />
        <FeaturesSection content={content} t={t} />
        <AboutSection content={content} t={t} />
        <BenefitsSection content={content} t={t} />
        <CallToActionSection t={t} getStartedPath={content.getStartedPath} />
      </main>
      <LandingFooter content={content} lang={lang} homePath={homePath} t={t} />
    </div>
  );
}

// Hero: configured title and tagline, Get Started (→ sign-up) and the hero image (spec part 2 §2).
import { Button, Container, Group, Image, Text } from '@mantine/core';
import { IconArrowRight, IconSparkles } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import { HeroIllustration } from './HeroIllustration';
import type { LandingContent } from './landing-content';
import classes from './landing.module.css';

export function HeroSection({ content, t }: { content: LandingContent; t: TFunction<'landing'> }) {
  return (
    <section className={classes.hero} aria-labelledby="landing-title">
      <Container size="lg" className={classes.heroGrid}>
        <div className={content.textClassName || undefined}>
          <span className={classes.eyebrow}>
            <IconSparkles size={16} aria-hidden="true" />
            {t('hero.eyebrow')}
          </span>
          <h1 id="landing-title" className={classes.heroTitle}>
            {content.title}
          </h1>
          {content.tagline && <p className={classes.heroTagline}>{content.tagline}</p>}
          <Group className={classes.heroActions} gap="sm">
            <Button component={Link} to={content.getStartedPath} size="lg" radius="xl" rightSection={<IconArrowRight size={18} aria-hidden="true" />}>
              {t('nav.getStarted')}
            </Button>
            <Button component="a" href="#features" size="lg" radius="xl" variant="default">
              {t('hero.secondary')}
            </Button>
          </Group>
          <Text size="sm" mt="md" className={classes.muted}>
            {t('hero.note')}
          </Text>
        </div>
        {content.imageSrc ? (
          <Image src={content.imageSrc} alt={t('hero.imageAlt', { app: content.appName })} className={classes.heroImage} />
        ) : (
          <HeroIllustration appName={content.appName} t={t} />
        )}
      </Container>
    </section>
  );
}

// Closing call to action: one more Get Started / Comenzar, to the sign-up form.
import { Button, Container, Text, Title } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import { Link } from 'react-router';
import classes from './landing.module.css';

export function CallToActionSection({ t, getStartedPath }: { t: TFunction<'landing'>; getStartedPath: string }) {
  return (
    <section className={classes.section} aria-labelledby="landing-cta-title">
      <Container size="md">
        <div className={classes.cta}>
          <Title order={2} id="landing-cta-title" className={classes.sectionTitle}>
            {t('cta.title')}
          </Title>
          <Text size="lg" mt="md" className={classes.ctaText}>
            {t('cta.body')}
          </Text>
          <Button
            component={Link}
            to={getStartedPath}
            size="lg"
            radius="xl"
            mt="xl"
            variant="white"
            rightSection={<IconArrowRight size={18} aria-hidden="true" />}
          >
            {t('nav.getStarted')}
          </Button>
        </div>
      </Container>
    </section>
  );
}

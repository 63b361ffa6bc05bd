// About: what the product is (spec part 1 §1), with the app name and the support email from the configuration.
import { Anchor, Container, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconMail } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { LandingContent } from './landing-content';
import classes from './landing.module.css';

export function AboutSection({ content, t }: { content: LandingContent; t: TFunction<'landing'> }) {
  return (
    <section id="about" className={`${classes.section} ${classes.sectionAlt}`} aria-labelledby="landing-about-title">
      <Container size="lg">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing={48}>
          <div>
            <Title order={2} id="landing-about-title" className={`${classes.sectionTitle} ${content.textClassName}`}>
              {t('about.title', { app: content.appName })}
            </Title>
            <Text size="lg" mt="md" lh={1.7} className={classes.muted}>
              {t('about.body', { app: content.appName })}
            </Text>
            {content.supportEmail && (
              <Anchor href={`mailto:${content.supportEmail}`} mt="lg" style={{ display: 'inline-flex', alignItems: 'center', gap: 6 }}>
                <IconMail size={18} aria-hidden="true" />
                {content.supportEmail}
              </Anchor>
            )}
          </div>
          <ul className={classes.aboutPoints}>
            {(['about.point1', 'about.point2', 'about.point3'] as const).map((key) => (
              <li key={key} className={classes.aboutPoint}>
                <ThemeIcon size={28} radius="xl" aria-hidden="true" style={{ flex: 'none' }}>
                  <IconCheck size={16} stroke={2.5} />
                </ThemeIcon>
                <span>{t(key)}</span>
              </li>
            ))}
          </ul>
        </SimpleGrid>
      </Container>
    </section>
  );
}

// The three configured features (feature1..3_title/_description), as cards.
import { Card, Container, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconMessageChatbot, IconTemplate, IconUserStar } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { LandingContent } from './landing-content';
import classes from './landing.module.css';

const FEATURE_ICONS = [IconMessageChatbot, IconTemplate, IconUserStar];

export function FeaturesSection({ content, t }: { content: LandingContent; t: TFunction<'landing'> }) {
  if (content.features.length === 0) return null;
  return (
    <section id="features" className={classes.section} aria-labelledby="landing-features-title">
      <Container size="lg">
        <Title order={2} id="landing-features-title" ta="center" className={`${classes.sectionTitle} ${content.textClassName}`}>
          {t('features.title')}
        </Title>
        <Text ta="center" size="lg" mt="sm" className={classes.muted}>
          {t('features.subtitle')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: content.features.length }} spacing="lg" mt={48}>
          {content.features.map((feature, index) => {
            const Icon = FEATURE_ICONS[index % FEATURE_ICONS.length];
            return (
              <Card key={index} withBorder radius="lg" padding="xl" className={classes.featureCard}>
                <ThemeIcon size={48} radius="md" variant="light">
                  <Icon size={26} stroke={1.6} aria-hidden="true" />
                </ThemeIcon>
                <Title order={3} size="h4" mt="lg">
                  {feature.title}
                </Title>
                {feature.description && (
                  <Text mt="xs" lh={1.65} className={classes.muted}>
                    {feature.description}
                  </Text>
                )}
              </Card>
            );
          })}
        </SimpleGrid>
      </Container>
    </section>
  );
}

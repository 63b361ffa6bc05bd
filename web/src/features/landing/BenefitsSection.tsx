// Optional exclusive benefits (benefit1..3) with the sign-up link of the high-ticket offer (spec part 2 §2).
import { Button, Container, Group, SimpleGrid, Text, ThemeIcon, Title } from '@mantine/core';
import { IconArrowRight, IconCrown } from '@tabler/icons-react';
import type { TFunction } from 'i18next';
import type { LandingContent } from './landing-content';
import classes from './landing.module.css';

export function BenefitsSection({ content, t }: { content: LandingContent; t: TFunction<'landing'> }) {
  const { benefits, offer } = content;
  if (benefits.length === 0 && !offer) return null;
  return (
    <section className={`${classes.section} ${classes.benefits}`} aria-labelledby="landing-benefits-title">
      <Container size="lg">
        <Title order={2} id="landing-benefits-title" ta="center" className={classes.sectionTitle}>
          {t('benefits.title')}
        </Title>
        <Text ta="center" size="lg" mt="sm" className={classes.benefitText}>
          {t('benefits.subtitle')}
        </Text>
        {benefits.length > 0 && (
          <SimpleGrid cols={{ base: 1, sm: benefits.length }} spacing="lg" mt={48}>
            {benefits.map((benefit, index) => (
              <div key={index} className={classes.benefitCard}>
                <ThemeIcon size={44} radius="md" color="yellow" variant="filled" aria-hidden="true">
                  <IconCrown size={24} stroke={1.7} color="var(--mantine-color-dark-8)" />
                </ThemeIcon>
                <Title order={3} size="h4" mt="md">
                  {benefit.title}
                </Title>
                {benefit.description && (
                  <Text mt="xs" lh={1.65} className={classes.benefitText}>
                    {benefit.description}
                  </Text>
                )}
              </div>
            ))}
          </SimpleGrid>
        )}
        {offer && (
          <Group justify="center" mt={48}>
            <Button
              component="a"
              href={offer.link}
              target="_blank"
              rel="noopener noreferrer"
              size="lg"
              radius="xl"
              color="yellow"
              c="dark.8"
              rightSection={<IconArrowRight size={18} aria-hidden="true" />}
            >
              {t('benefits.offerCta', { offer: offer.name || t('benefits.offerFallback') })}
            </Button>
          </Group>
        )}
      </Container>
    </section>
  );
}

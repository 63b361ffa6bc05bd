// A template's card (spec part 2 §2, §9): name, description, one tag, the author ('the {app} team' for the
// seeded library, 'Unknown Admin Name' for an author without a name, §8), the star, Apply, and Edit / Delete when the template's abilities allow them.
import { ActionIcon, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import { TEMPLATE_CARD_TAGS, type Template } from '@pluma/common/templates';
import { IconPencil, IconStar, IconStarFilled, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppConfig } from '../../platform/config/app-config';
import { LazyTooltip } from '../../ui/LazyTooltip';

export const TEMPLATE_CARD_HEIGHT = 196;

interface TemplateCardProps {
  template: Template;
  /** Apply: a link to the apply screen (the templates page) or a choice (the apply screen's browser). */
  apply: { to: string } | { onPick: () => void };
  onToggleFavorite: () => void;
  favoritePending: boolean;
  /** Edit and Delete are offered on the templates page only. */
  manage: boolean;
  onDelete: () => void;
}

/**
 * The author's name; a template of the seeded library (no user_id: the app made it) is the app's own, so it
 * reads 'the {app} team' instead of 'Unknown Admin Name', which stays for an author without a name (§8).
 */
export function authorName(template: Pick<Template, 'author' | 'user_id'>, labels: { unknown: string; library: string }): string {
  if (template.user_id === null) return labels.library;
  const name = template.author ? `${template.author.name} ${template.author.last_name}`.trim() : '';
  return name || labels.unknown;
}

export function TemplateCard({ template, apply, onToggleFavorite, favoritePending, manage, onDelete }: TemplateCardProps) {
  const { t } = useTranslation('templates');
  const appName = useAppConfig().get('app_name');
  const tags = template.tags.slice(0, TEMPLATE_CARD_TAGS);
  const starLabel = template.favorite ? t('card.unfavorite', { name: template.name }) : t('card.favorite', { name: template.name });
  return (
    <Card withBorder radius="md" padding="md" style={{ height: TEMPLATE_CARD_HEIGHT }} data-testid="template-card" component="article" aria-label={template.name}>
      <Stack justify="space-between" h="100%" gap="xs">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text fw={600} lineClamp={1} data-testid="template-name">
              {template.name}
            </Text>
            <LazyTooltip label={starLabel} withArrow>
              <ActionIcon
                variant="subtle"
                color="yellow"
                aria-label={starLabel}
                aria-pressed={template.favorite}
                onClick={onToggleFavorite}
                loading={favoritePending}
                data-testid="template-star"
              >
                {template.favorite ? <IconStarFilled size={18} aria-hidden /> : <IconStar size={18} aria-hidden />}
              </ActionIcon>
            </LazyTooltip>
          </Group>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {template.description}
          </Text>
          <Group gap={6} wrap="nowrap">
            {tags.map((tag) => (
              <Badge key={tag} size="sm" variant="light" data-testid="template-tag" style={{ maxWidth: 160 }}>
                {tag}
              </Badge>
            ))}
            {template.public && (
              <Badge size="sm" variant="outline">
                {t('card.public')}
              </Badge>
            )}
          </Group>
        </Stack>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text size="xs" c="dimmed" lineClamp={1} data-testid="template-author">
            {t('card.by', { name: authorName(template, { unknown: t('card.unknownAuthor'), library: t('card.libraryAuthor', { app: appName }) }) })}
          </Text>
          <Group gap={4} wrap="nowrap">
            {manage && template.abilities.edit && (
              <LazyTooltip label={t('card.edit')} withArrow>
                <ActionIcon component={Link} to={`/templates/edit-template/${template.template_id}`} variant="subtle" aria-label={t('card.editNamed', { name: template.name })} data-testid="template-edit">
                  <IconPencil size={16} aria-hidden />
                </ActionIcon>
              </LazyTooltip>
            )}
            {manage && template.abilities.delete && (
              <LazyTooltip label={t('card.delete')} withArrow>
                <ActionIcon variant="subtle" color="red" aria-label={t('card.deleteNamed', { name: template.name })} onClick={onDelete} data-testid="template-delete">
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
              </LazyTooltip>
            )}
            {'to' in apply ? (
              <Button size="xs" component={Link} to={apply.to} aria-label={t('card.applyNamed', { name: template.name })} data-testid="template-apply">
                {t('card.apply')}
              </Button>
            ) : (
              <Button size="xs" onClick={apply.onPick} aria-label={t('card.applyNamed', { name: template.name })} data-testid="template-apply">
                {t('card.apply')}
              </Button>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

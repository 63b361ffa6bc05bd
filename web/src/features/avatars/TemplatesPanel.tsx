// The avatar page's templates panel (spec part 2 §2 "Avatar page: … templates panel"; issue 13, filled in by
// the templates issue): the templates the user may use, searched by name and description, optionally only
// their favorites, 24 at a time with "Load more" (§9). Apply opens the templates' apply screen for this
// avatar, /templates/apply-avatar/{template_id}/{avatar_id} (§1 routes). Shown only while templates are on
// (templates_enabled, like the Templates tab). Templates in the user's language come first (issue 30 item 20).
import { Badge, Button, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { SEARCH_DEBOUNCE_MS } from '@pluma/common/constants';
import { TEMPLATE_CARD_TAGS } from '@pluma/common/templates';
import { IconStarFilled } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isLang } from '../../i18n';
import { useAppConfig } from '../../platform/config/app-config';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { screenText } from '../../ui/screen-text';
import { SearchInput } from '../../ui/SearchInput';
import { useAvatarTemplates } from './avatars-api';

export function TemplatesPanel({ avatarId }: { avatarId: number }) {
  const enabled = useAppConfig().on('templates_enabled');
  return enabled ? <TemplatesPanelView avatarId={avatarId} /> : null;
}

function TemplatesPanelView({ avatarId }: { avatarId: number }) {
  const { t, i18n } = useTranslation('avatars');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [favorites, setFavorites] = useState(false);
  // The user's language first (the screen's language: the one they read).
  const list = useAvatarTemplates({ query: debounced, favorites }, isLang(i18n.language) ? i18n.language : 'en');
  const templates = list.data?.pages.flatMap((page) => page.templates) ?? [];

  return (
    <Card withBorder radius="md" padding="lg" data-testid="templates-panel" component="section" aria-labelledby="avatar-templates-title">
      <Stack gap="sm">
        <Title order={3} size="h4" id="avatar-templates-title">
          {t('templates.title')}
        </Title>
        <Group gap="md" align="flex-end">
          <SearchInput label={t('templates.search')} value={search} onChange={setSearch} maw={420} style={{ flex: 1 }} data-testid="templates-search" />
          <Switch
            label={t('templates.favorites')}
            checked={favorites}
            onChange={(event) => setFavorites(event.currentTarget.checked)}
            mb={8}
            data-testid="templates-favorites"
          />
        </Group>
        {list.isError && !list.data ? (
          <LoadErrorAlert
            text={screenText({ failure: list.error, options: { premiumAsMessage: true } }, t) ?? t('templates.loadError')}
            onRetry={() => void list.refetch()}
            retryLabel={t('retry')}
            data-testid="templates-error"
          />
        ) : !list.data ? (
          <Group justify="center" py="md">
            <Loader size="sm" aria-label={t('templates.loading')} data-testid="templates-loading" />
          </Group>
        ) : templates.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="templates-empty">
            {t('templates.empty')}
          </Text>
        ) : (
          <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-busy={list.isFetching}>
            {templates.map((template) => (
              <Group key={template.template_id} component="li" justify="space-between" wrap="nowrap" gap="sm" data-testid="avatar-template">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Group gap={6} wrap="nowrap">
                    {template.favorite && <IconStarFilled size={14} color="var(--mantine-color-yellow-6)" aria-label={t('templates.favorite')} role="img" />}
                    <Text fw={600} size="sm" lineClamp={1} data-testid="avatar-template-name">
                      {template.name}
                    </Text>
                    {template.tags.slice(0, TEMPLATE_CARD_TAGS).map((tag) => (
                      <Badge key={tag} size="xs" variant="light" style={{ maxWidth: 140 }}>
                        {tag}
                      </Badge>
                    ))}
                  </Group>
                  {template.description && (
                    <Text size="xs" c="dimmed" lineClamp={2}>
                      {template.description}
                    </Text>
                  )}
                </Stack>
                <Button
                  component={Link}
                  to={`/templates/apply-avatar/${template.template_id}/${avatarId}`}
                  size="xs"
                  variant="light"
                  aria-label={t('templates.applyNamed', { name: template.name })}
                  data-testid="apply-template"
                >
                  {t('templates.apply')}
                </Button>
              </Group>
            ))}
          </Stack>
        )}
        {list.isError && list.data && (
          <LoadErrorAlert
            text={screenText({ failure: list.error, options: { premiumAsMessage: true } }, t) ?? t('templates.loadError')}
            onRetry={() => void (list.isFetchNextPageError ? list.fetchNextPage() : list.refetch())}
            retryLabel={t('retry')}
            data-testid="templates-error"
          />
        )}
        {list.hasNextPage && (
          <Group justify="center">
            <Button variant="default" size="xs" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage} data-testid="templates-more">
              {t('templates.loadMore')}
            </Button>
          </Group>
        )}
      </Stack>
    </Card>
  );
}

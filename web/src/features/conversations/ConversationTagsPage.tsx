// /conversation/tags: every tag of the user's conversations with its count; a tag opens its conversations.
import { Badge, Card, EmptyState, Group, SimpleGrid, Skeleton, Stack, Switch, Text, UnstyledButton } from '@mantine/core';
import { IconTag } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { PageHeader } from '../../ui/PageHeader';
import classes from './Conversations.module.css';
import { useConversationTags } from './conversations-api';
import { parseArchived } from './list-params';
import { ViewSwitch } from './ViewSwitch';

export default function ConversationTagsPage() {
  const { t } = useTranslation('chat');
  const [params, setParams] = useSearchParams();
  const archived = parseArchived(params.get('archived'));
  const tags = useConversationTags(archived);
  const list = tags.data?.tags ?? [];
  const suffix = archived ? '?archived=1' : '';

  return (
    <Stack gap="lg" data-testid="conversation-tags-page">
      <PageHeader title={t('tags.title')} description={t('tags.description')} />
      <Group gap="md" align="flex-end" className={classes.toolbar}>
        <ViewSwitch value="tags" />
        <Switch
          label={t('list.showArchived')}
          checked={archived}
          onChange={(event) => setParams(event.currentTarget.checked ? { archived: '1' } : {}, { replace: true })}
          pb={8}
        />
      </Group>
      {tags.isPending ? (
        <SimpleGrid cols={{ base: 2, sm: 3, md: 4 }} role="status" aria-label={t('list.loading')}>
          {Array.from({ length: 8 }, (_, index) => (
            <Skeleton key={index} height={56} radius="lg" />
          ))}
        </SimpleGrid>
      ) : list.length === 0 ? (
        <Card withBorder radius="lg" padding="xl">
          <EmptyState icon={<IconTag size={28} aria-hidden />} withIndicatorBackground title={t('tags.empty')} description={t('tags.emptyBody')} />
        </Card>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3, md: 4 }} spacing="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {list.map(({ tag, count }) => (
            <li key={tag}>
              <UnstyledButton component={Link} to={`/conversation/tags/${encodeURIComponent(tag)}${suffix}`} w="100%" data-testid="tag-link">
                <Card withBorder radius="lg" padding="sm">
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
                      <IconTag size={16} aria-hidden style={{ flexShrink: 0 }} />
                      <Text fw={600} truncate>
                        {tag}
                      </Text>
                    </Group>
                    <Badge variant="light" aria-label={t('tags.count', { count })}>
                      {count}
                    </Badge>
                  </Group>
                </Card>
              </UnstyledButton>
            </li>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

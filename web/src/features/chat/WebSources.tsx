// Web search under an answer (issue 32): the step it waits on ("Searching the web…", "Reading 4 pages…"),
// then the pages it cites as source cards, numbered as the answer's [1], [2] and linking to the pages; or,
// when the search failed, a plain notice that the answer was written without the web.
import { Alert, Anchor, Group, Loader, Paper, SimpleGrid, Text } from '@mantine/core';
import type { WebSource } from '@pluma/common/messages-api';
import { IconWorldOff } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ChatMessage } from './chat-state';

export function WebSearchStatus({ message }: { message: Pick<ChatMessage, 'webStep' | 'sources' | 'web_search_failed'> }) {
  const { t } = useTranslation('chat');
  if (message.webStep) {
    return (
      <Group gap={6} aria-live="polite" data-testid="web-search-step">
        <Loader size={12} aria-hidden />
        <Text size="xs" c="var(--pluma-muted)">
          {message.webStep.step === 'searching' ? t('webSearch.searching') : t('webSearch.reading', { count: message.webStep.count ?? 0 })}
        </Text>
      </Group>
    );
  }
  if (message.web_search_failed) {
    return (
      <Alert variant="light" color="yellow" icon={<IconWorldOff size={16} aria-hidden />} p="xs" data-testid="web-search-failed">
        <Text size="xs">{t('webSearch.failed')}</Text>
      </Alert>
    );
  }
  if (!message.sources?.length) return null;
  return <SourceCards sources={message.sources} />;
}

function SourceCards({ sources }: { sources: readonly WebSource[] }) {
  const { t } = useTranslation('chat');
  return (
    <nav aria-label={t('webSearch.sources')} data-testid="web-sources">
      <SimpleGrid component="ol" cols={{ base: 1, xs: 2 }} spacing={6} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {sources.map((source) => (
          <li key={source.n}>
            <Paper withBorder radius="md" p={8} data-testid="web-source">
              <Anchor href={source.url} target="_blank" rel="noopener noreferrer nofollow" size="sm" fw={600} lineClamp={1} title={source.title}>
                [{source.n}] {source.title}
              </Anchor>
              <Text size="xs" c="var(--pluma-muted)" lineClamp={1}>
                {source.site}
              </Text>
            </Paper>
          </li>
        ))}
      </SimpleGrid>
    </nav>
  );
}

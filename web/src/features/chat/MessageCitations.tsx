// The passages an avatar's answer cites (issue 13 item 3: "each avatar reply cites its passages under the
// answer (file, page; click to see the passage)"). A deleted file's citations are gone from the server's
// answer (message_citations cascades from files), so nothing shown here points at a deleted file.
import { Button, Group, Stack, Text } from '@mantine/core';
import type { MessageCitation } from '@pluma/common/messages-api';
import { IconFileText } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Modal } from '../../ui/Modal';
import { shortFileName } from './file-rules';

export function MessageCitations({ citations }: { citations: readonly MessageCitation[] }) {
  const { t } = useTranslation('chat');
  // The dialog keeps the last citation while it animates out, so its title (its accessible name) stays.
  const [shown, setShown] = useState<MessageCitation | null>(null);
  const [opened, setOpened] = useState(false);
  if (citations.length === 0) return null;
  return (
    <>
      <Group gap={6} wrap="wrap" data-testid="citations">
        <Text size="xs" c="var(--pluma-muted)" aria-hidden>
          {t('citations.label')}
        </Text>
        <Group component="ul" gap={6} wrap="wrap" aria-label={t('citations.label')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
          {citations.map((citation, index) => (
            <li key={`${citation.file_id}-${index}`}>
              <Button
                size="compact-xs"
                variant="light"
                color="gray"
                leftSection={<IconFileText size={12} aria-hidden />}
                onClick={() => {
                  setShown(citation);
                  setOpened(true);
                }}
                title={citation.name}
                data-testid="citation"
              >
                {citationLabel(citation, t('citations.page', { page: citation.page }))}
              </Button>
            </li>
          ))}
        </Group>
      </Group>
      <Modal opened={opened} onClose={() => setOpened(false)} title={shown ? citationLabel(shown, t('citations.page', { page: shown.page }), Infinity) : undefined} size="lg" data-testid="citation-modal">
        {shown && (
          <Stack gap="xs">
            {shown.heading && (
              <Text fw={600} size="sm">
                {shown.heading}
              </Text>
            )}
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="citation-text">
              {shown.text}
            </Text>
          </Stack>
        )}
      </Modal>
    </>
  );
}

function citationLabel(citation: MessageCitation, page: string, max?: number): string {
  const name = shortFileName(citation.name, max);
  return citation.page === null ? name : `${name} · ${page}`;
}

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
  const [open, setOpen] = useState<MessageCitation | null>(null);
  if (citations.length === 0) return null;
  return (
    <>
      <Group gap={6} wrap="wrap" data-testid="citations" role="list" aria-label={t('citations.label')}>
        <Text size="xs" c="var(--pluma-muted)">
          {t('citations.label')}
        </Text>
        {citations.map((citation, index) => (
          <Button
            key={`${citation.file_id}-${index}`}
            role="listitem"
            size="compact-xs"
            variant="light"
            color="gray"
            leftSection={<IconFileText size={12} aria-hidden />}
            onClick={() => setOpen(citation)}
            title={citation.name}
            data-testid="citation"
          >
            {citationLabel(citation, t('citations.page', { page: citation.page }))}
          </Button>
        ))}
      </Group>
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open ? citationLabel(open, t('citations.page', { page: open.page }), Infinity) : undefined} size="lg" data-testid="citation-modal">
        {open && (
          <Stack gap="xs">
            {open.heading && (
              <Text fw={600} size="sm">
                {open.heading}
              </Text>
            )}
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="citation-text">
              {open.text}
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

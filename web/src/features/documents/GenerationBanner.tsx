// Reload safety for generations (issue 15 item 1: "no lost edits on reload"): when a document is opened, its
// unapplied generations are read once (GET /documents/{id}/generations?unapplied=true). One still streaming
// is resumed (its text so far, then its frames); one finished while the page was away (done, or failed with
// some text, or stopped with some) is offered: Insert appends it, saves and marks it applied; Dismiss only marks it applied.
import { Alert, Button, Group, Text } from '@mantine/core';
import type { DocumentGeneration } from '@pluma/common/documents-generate';
import { IconInfoCircle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DOCUMENTS_KEY } from './documents-api';
import { unappliedGenerations } from './generation-api';
import type { DocumentGenerationControls } from './use-document-generation';

interface GenerationBannerProps {
  /** The document as opened (null for a new one: nothing can be waiting for it). */
  documentId: number | null;
  /** The editor is there to write into. */
  ready: boolean;
  generation: DocumentGenerationControls;
}

const waiting = (g: DocumentGeneration) => g.status === 'done' || ((g.status === 'failed' || g.status === 'stopped') && g.content.trim() !== '');

export function GenerationBanner({ documentId, ready, generation }: GenerationBannerProps) {
  const { t } = useTranslation('documents');
  // Read once, for the document as it was opened: a generation started here is followed by the hook.
  const [openedId] = useState(documentId);
  const list = useQuery({
    queryKey: [...DOCUMENTS_KEY, 'generations', openedId],
    queryFn: () => unappliedGenerations(openedId ?? 0),
    enabled: openedId !== null && ready,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const [handled, setHandled] = useState<number[]>([]);
  const [working, setWorking] = useState<number | null>(null);
  const resumed = useRef(new Set<number>());
  const generations = list.data?.generations;
  const { resume } = generation;

  useEffect(() => {
    if (!ready || !generations) return;
    const streaming = generations.find((g) => g.status === 'streaming' && !resumed.current.has(g.generation_id));
    if (!streaming) return;
    resumed.current.add(streaming.generation_id);
    resume(streaming);
  }, [ready, generations, resume]);

  const offered = (generations ?? []).filter((g) => waiting(g) && !handled.includes(g.generation_id));
  if (offered.length === 0) return null;

  const act = async (g: DocumentGeneration, action: 'insert' | 'dismiss') => {
    setWorking(g.generation_id);
    try {
      await (action === 'insert' ? generation.insert(g) : generation.dismiss(g));
      setHandled((ids) => [...ids, g.generation_id]);
    } finally {
      setWorking(null);
    }
  };

  return offered.map((g) => (
    <Alert key={g.generation_id} color="blue" icon={<IconInfoCircle size={18} aria-hidden />} title={t('generation.away')} data-testid="document-generation-away">
      <Text size="sm" lineClamp={3} mb="xs" data-testid="document-generation-away-text">
        {g.content}
      </Text>
      <Group gap="xs">
        <Button size="xs" onClick={() => void act(g, 'insert')} loading={working === g.generation_id} disabled={generation.busy || (working !== null && working !== g.generation_id)} data-testid="document-generation-insert">
          {t('generation.insert')}
        </Button>
        <Button size="xs" variant="default" onClick={() => void act(g, 'dismiss')} disabled={generation.busy || working !== null} data-testid="document-generation-dismiss">
          {t('generation.dismiss')}
        </Button>
      </Group>
    </Alert>
  ));
}

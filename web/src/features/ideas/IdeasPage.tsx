// The topics and hashtags generators (spec part 2 §2 "Topics and hashtags": /topics asks for 2 to 5 ideas,
// /hashtags for 10 to 20): a subject, how many, an optional avatar's voice; Generate, then the ideas with a
// copy button each and Copy all (spec part 2 §8 clipboard failure text); the history below, newest first.
// While it runs, Generate becomes Stop (Esc too; issue 30 item 1): the request is aborted, and the server
// ends the provider call with it, keeping and charging nothing.
import { ActionIcon, Badge, Button, Card, Group, Loader, NumberInput, Select, Stack, Text, Textarea, Title } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { IDEA_COUNT, IDEA_SUBJECT_MAX, type Idea, type IdeaKind } from '@pluma/common/ideas';
import { IconCopy, IconPlayerStopFilled, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../platform/session/session-context';
import { showSuccess } from '../../ui/alerts';
import { copyToClipboard } from '../../ui/clipboard';
import { ListPagination } from '../../ui/ListPagination';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { deleteIdea, generateIdeas, ideasKey, useIdeaHistory, useOwnAvatars } from './ideas-api';
import { formatDateTime } from '../../i18n/format';

/** Topics read best one per line; hashtags are pasted as one line. */
const joinItems = (kind: IdeaKind, items: string[]) => items.join(kind === 'hashtags' ? ' ' : '\n');

/** The count as typed, when it is a whole number within the limits; else the default (the input clamps on blur). */
function countToSend(kind: IdeaKind, value: number | string): number {
  const { min, max, initial } = IDEA_COUNT[kind];
  const n = Number(value);
  return value !== '' && Number.isInteger(n) && n >= min && n <= max ? n : initial;
}

function IdeaItems({ kind, idea, testId }: { kind: IdeaKind; idea: Idea; testId: string }) {
  const { t } = useTranslation('ideas');
  return (
    <Stack gap={6} data-testid={testId}>
      {idea.items.map((item, index) => (
        <Group key={`${index}-${item}`} gap="xs" wrap="nowrap" justify="space-between" data-testid="idea-item">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {item}
          </Text>
          <ActionIcon variant="subtle" aria-label={t('copyOne', { item })} onClick={() => void copyToClipboard(item, t('copied'))}>
            <IconCopy size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Group>
        <Button size="xs" variant="light" leftSection={<IconCopy size={14} aria-hidden />} onClick={() => void copyToClipboard(joinItems(kind, idea.items), t('copiedAll'))}>
          {t('copyAll')}
        </Button>
      </Group>
    </Stack>
  );
}

export function IdeasPage({ kind }: { kind: IdeaKind }) {
  const { t, i18n } = useTranslation('ideas');
  const session = useSession();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const limits = IDEA_COUNT[kind];
  const [subject, setSubject] = useState('');
  // The input's value as typed ('' while cleared); an empty or out-of-range count is sent as the default.
  const [count, setCount] = useState<number | string>(limits.initial);
  const [avatarId, setAvatarId] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const [result, setResult] = useState<Idea | null>(null);
  const [page, setPage] = useState(1);
  const history = useIdeaHistory(kind, page);
  const avatars = useOwnAvatars();

  // The running generation's request, aborted by Stop.
  const running = useRef<AbortController | null>(null);
  const generate = useMutation({
    mutationFn: () => {
      const controller = new AbortController();
      running.current = controller;
      return generateIdeas(kind, { subject: subject.trim(), count: countToSend(kind, count), avatar_id: avatarId ? Number(avatarId) : null }, controller.signal);
    },
    onSuccess: (idea) => {
      setResult(idea);
      setPage(1);
      void queryClient.invalidateQueries({ queryKey: ideasKey(kind) });
      // The words spent show in the sidebar's balance.
      void session.reloadUser();
    },
    onError: (error) => {
      if (running.current?.signal.aborted) showSuccess(t('stopped'));
      else handleError(error, { showValidation: true });
    },
    onSettled: () => {
      running.current = null;
    },
  });
  const stop = () => running.current?.abort();
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented && generate.isPending) stop();
  });
  const remove = useMutation({
    mutationFn: (ideaId: number) => deleteIdea(ideaId),
    onSuccess: (_, ideaId) => {
      showSuccess(t('deleted'));
      if (result?.idea_id === ideaId) setResult(null);
      void queryClient.invalidateQueries({ queryKey: ideasKey(kind) });
    },
    onError: (error) => handleError(error),
  });

  const subjectEmpty = !subject.trim();
  const submit = () => {
    setTouched(true);
    if (!subjectEmpty) generate.mutate();
  };
  const pages = history.data ? Math.ceil(history.data.total / history.data.page_size) : 0;

  return (
    <Stack gap="lg" maw={900}>
      <PageHeader title={t(`${kind}.title`)} description={t(`${kind}.description`)} />
      <Card withBorder>
        <Stack gap="sm">
          <Textarea
            label={t('subject')}
            placeholder={t(`${kind}.placeholder`)}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            error={touched && subjectEmpty ? t('subjectRequired') : undefined}
            maxLength={IDEA_SUBJECT_MAX}
            autosize
            minRows={2}
            required
            data-testid="idea-subject"
          />
          <Group align="flex-end" grow>
            <NumberInput
              label={t(`${kind}.count`, { min: limits.min, max: limits.max })}
              value={count}
              onChange={setCount}
              min={limits.min}
              max={limits.max}
              step={1}
              allowDecimal={false}
              clampBehavior="strict"
              data-testid="idea-count"
            />
            <Select
              label={t('avatar')}
              placeholder={t('noAvatar')}
              data={(avatars.data?.avatars ?? []).map((a) => ({ value: String(a.avatar_id), label: a.name }))}
              value={avatarId}
              onChange={setAvatarId}
              clearable
              searchable
              nothingFoundMessage={t('noAvatars')}
              data-testid="idea-avatar"
            />
          </Group>
          <Group>
            {generate.isPending ? (
              <Button color="red" variant="light" leftSection={<IconPlayerStopFilled size={14} aria-hidden />} onClick={stop} data-testid="stop-ideas">
                {t('stop')}
              </Button>
            ) : (
              <Button onClick={submit} data-testid="generate-ideas">
                {t('generate')}
              </Button>
            )}
            {generate.isPending && (
              <Group gap="xs" data-testid="ideas-generating">
                <Loader size="xs" />
                <Text size="sm" c="dimmed">
                  {t(`${kind}.generating`)}
                </Text>
              </Group>
            )}
          </Group>
        </Stack>
      </Card>

      {result && (
        <Card withBorder data-testid="idea-result">
          <Stack gap="sm">
            <Title order={3}>{t('results')}</Title>
            <IdeaItems kind={kind} idea={result} testId="result-items" />
          </Stack>
        </Card>
      )}

      <Stack gap="sm">
        <Title order={3}>{t('history')}</Title>
        {history.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void history.refetch()} retryLabel={t('retry')} />}
        {history.isLoading && <Text c="dimmed">{t('loading')}</Text>}
        {history.data?.ideas.length === 0 && (
          <Text c="dimmed" data-testid="ideas-empty">
            {t('empty')}
          </Text>
        )}
        {history.data?.ideas.map((idea) => (
          <Card key={idea.idea_id} withBorder padding="sm" data-testid={`idea-${idea.idea_id}`}>
            <Stack gap="xs">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={2} style={{ minWidth: 0 }}>
                  <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {idea.subject}
                  </Text>
                  <Group gap="xs">
                    <Text size="xs" c="dimmed">
                      {formatDateTime(idea.createdAt, i18n.language)}
                    </Text>
                    {idea.avatar_name && (
                      <Badge size="xs" variant="light">
                        {idea.avatar_name}
                      </Badge>
                    )}
                  </Group>
                </Stack>
                {idea.abilities.delete && (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={t('delete')}
                    onClick={() => remove.mutate(idea.idea_id)}
                    loading={remove.isPending && remove.variables === idea.idea_id}
                    data-testid="delete-idea"
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
              <IdeaItems kind={kind} idea={idea} testId="history-items" />
            </Stack>
          </Card>
        ))}
        <ListPagination total={pages} value={page} onChange={setPage} />
      </Stack>
    </Stack>
  );
}

export function TopicsPage() {
  return <IdeasPage kind="topics" />;
}

export function HashtagsPage() {
  return <IdeasPage kind="hashtags" />;
}

// /super-fetch (spec part 2 §2 "Super Fetch", §5, §9; issue 14 item 4): the nine inputs (six required), an
// optional file (.docx, .pdf, .pptx, .txt) as context, the outputs count (starts at 1, minimum 0), the input
// form or the feedback form (liked / disliked / none plus a text, required before a modified prompt), reset
// (the form) and clean (the results). Results stream in as cards (`super_fetch_outputs`), can be copied and
// rated, and exported to {avatar}_{name}_{YYYY_MM_DD_HH_mm}.xlsx. Not in organization scope (§2).
// While outputs are written, Generate becomes Stop (Esc too; issue 30 item 1): every output still running
// ends as 'stopped' with its text kept, and the form is free at once; one output can be stopped from its
// card. Outputs render as markdown like the chat; Copy and the xlsx carry clean text (issue 30 item 2).
import { ActionIcon, Alert, Badge, Button, Card, FileInput, Grid, Group, Loader, NumberInput, SegmentedControl, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { SocketEvents } from '@pluma/common/events';
import {
  SUPER_FETCH_FILE_TYPES,
  SUPER_FETCH_HISTORY_PAGE,
  SUPER_FETCH_INPUTS,
  SUPER_FETCH_OUTPUTS_DEFAULT,
  SUPER_FETCH_OUTPUTS_MAX,
  SUPER_FETCH_OUTPUTS_MIN,
  SUPER_FETCH_REQUIRED,
  type SuperFetchHistory,
  type SuperFetchInputKey,
  type SuperFetchInputs,
  type SuperFetchOutput,
  type SuperFetchOutputsPayload,
  type SuperFetchRun,
} from '@pluma/common/super-fetch';
import { IconCopy, IconFileSpreadsheet, IconPlayerStopFilled, IconThumbDown, IconThumbUp } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useActiveOrganization } from '../../api/organization';
import { useSocketEvent } from '../../api/socket';
import { showError, showSuccess } from '../../ui/alerts';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { PageHeader } from '../../ui/PageHeader';
import { useErrorHandler } from '../../ui/use-error-handler';
import { MessageMarkdown } from '../chat';
import { copyOutput } from './copy-output';
import { exportResults } from './export-xlsx';
import { markdownToPlainText } from './markdown-text';
import {
  applyFrame,
  applyStopped,
  cleanSuperFetch,
  historyPrefix,
  isRunning,
  markStopped,
  rateSuperFetchOutput,
  replaceOutput,
  startSuperFetch,
  stopSuperFetch,
  uploadSuperFetchFile,
  useSuperFetchAvatar,
  useSuperFetchHistory,
} from './super-fetch-api';
import { formatDateTime } from '../../i18n/format';

const EMPTY: SuperFetchInputs = Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, ''])) as SuperFetchInputs;
/** Longer inputs get a text area. */
const MULTILINE: readonly SuperFetchInputKey[] = ['examples', 'prompt'];
const ACCEPT = SUPER_FETCH_FILE_TYPES.map((type) => `.${type}`).join(',');
type Liked = 'liked' | 'disliked' | 'none';
const likedValue = (liked: Liked) => (liked === 'liked' ? true : liked === 'disliked' ? false : null);

/** spec: the outputs count stays within SUPER_FETCH_OUTPUTS_MIN..MAX (-1 becomes 0, not 1). */
const clampOutputs = (value: number) => Math.min(SUPER_FETCH_OUTPUTS_MAX, Math.max(SUPER_FETCH_OUTPUTS_MIN, Math.trunc(value)));

export default function SuperFetchPage() {
  const { t } = useTranslation('super-fetch');
  const organization = useActiveOrganization();
  if (organization) {
    return (
      <Stack gap="md" data-testid="super-fetch-page">
        <PageHeader title={t('title')} />
        <Alert color="yellow" data-testid="super-fetch-not-in-organization">
          {t('notInOrganization')}
        </Alert>
      </Stack>
    );
  }
  return <SuperFetch />;
}

function SuperFetch() {
  const { t } = useTranslation('super-fetch');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const onError = (error: unknown) => handleError(error, { premiumAsMessage: true, showValidation: true });
  const avatar = useSuperFetchAvatar(true);
  const assistantId = avatar.data?.avatar_id;
  const [limit, setLimit] = useState(SUPER_FETCH_HISTORY_PAGE);
  const history = useSuperFetchHistory(assistantId, limit);

  const [inputs, setInputs] = useState<SuperFetchInputs>(EMPTY);
  const [touched, setTouched] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const uploaded = useRef<{ file: File; fileId: number } | null>(null);
  // What is typed ('-' on the way to '-1'); the count sent is it clamped.
  const [countInput, setCountInput] = useState<number | string>(SUPER_FETCH_OUTPUTS_DEFAULT);
  const count = clampOutputs(Number(countInput) || 0);
  const [mode, setMode] = useState<'input' | 'feedback'>('input');
  const [feedback, setFeedback] = useState('');
  const [liked, setLiked] = useState<Liked>('none');
  const [feedbackTouched, setFeedbackTouched] = useState(false);
  // Frames of a run the page does not hold yet (they can arrive before the POST's answer).
  const early = useRef<SuperFetchOutputsPayload[]>([]);

  const runs = history.data?.runs ?? [];
  const latest = runs[0];
  const updateHistory = (change: (h: SuperFetchHistory) => SuperFetchHistory | null) => {
    if (assistantId === undefined) return;
    queryClient.setQueriesData<SuperFetchHistory>({ queryKey: historyPrefix(assistantId) }, (old) => (old ? (change(old) ?? old) : old));
  };

  useSocketEvent<SuperFetchOutputsPayload>(SocketEvents.superFetchOutputs, (frame) => {
    if (frame.assistant_id !== assistantId) return;
    let applied = false;
    updateHistory((h) => {
      const next = applyFrame(h, frame);
      if (next) applied = true;
      return next;
    });
    if (!applied) early.current.push(frame);
  });

  const addRun = (run: SuperFetchRun) => {
    const frames = early.current.filter((f) => f.run_id === run.run_id);
    early.current = early.current.filter((f) => f.run_id !== run.run_id);
    updateHistory((h) => frames.reduce<SuperFetchHistory>((acc, f) => applyFrame(acc, f) ?? acc, { runs: [run, ...h.runs.filter((r) => r.run_id !== run.run_id)], total: h.total + 1 }));
  };

  const missing = SUPER_FETCH_REQUIRED.filter((key) => !inputs[key].trim());
  const feedbackMissing = mode === 'feedback' && !feedback.trim();

  const generate = useMutation({
    mutationFn: async () => {
      let fileId: number | null = null;
      if (file) {
        if (uploaded.current?.file !== file) uploaded.current = { file, fileId: (await uploadSuperFetchFile(file)).file_id };
        fileId = uploaded.current.fileId;
      }
      return startSuperFetch({
        ...inputs,
        outputs: count,
        assistant_id: assistantId,
        file_id: fileId,
        feedback: mode === 'feedback' ? { input: feedback.trim(), liked: likedValue(liked), run_id: latest?.run_id ?? null } : null,
      });
    },
    onSuccess: (run) => {
      addRun(run);
      if (run.outputs.length < run.requested) showError(t('fewerOutputs', { started: run.outputs.length, requested: run.requested }));
      if (mode === 'feedback') {
        setFeedback('');
        setFeedbackTouched(false);
      }
    },
    onError,
  });
  // Stop: shown stopped at once (the form is free again), then as the server saved it.
  const stop = useMutation({
    mutationFn: ({ runId, outputId }: { runId: number; outputId?: number }) => stopSuperFetch(runId, outputId),
    onMutate: ({ runId, outputId }) => updateHistory((h) => markStopped(h, runId, outputId)),
    onSuccess: (run) => updateHistory((h) => applyStopped(h, run)),
    onError,
  });
  const runningRuns = runs.filter((run) => run.outputs.some(isRunning));
  const stopAll = () => runningRuns.forEach((run) => stop.mutate({ runId: run.run_id }));
  useWindowEvent('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented && runningRuns.length > 0) stopAll();
  });
  const rate = useMutation({
    mutationFn: ({ id, value }: { id: number; value: boolean | null }) => rateSuperFetchOutput(id, value),
    onSuccess: (output) => {
      updateHistory((h) => replaceOutput(h, output));
      showSuccess(t('rated'));
    },
    onError,
  });
  const clean = useMutation({
    mutationFn: () => cleanSuperFetch(assistantId!),
    onSuccess: () => {
      updateHistory(() => ({ runs: [], total: 0 }));
      setMode('input');
      showSuccess(t('cleaned'));
    },
    onError,
  });
  const exporting = useMutation({
    mutationFn: () =>
      exportResults({
        runs,
        avatarName: avatar.data?.name ?? t('title'),
        name: latest?.inputs.topic || t('title'),
        labels: {
          sheet: t('title'),
          date: t('sheet.date'),
          output: t('sheet.output'),
          content: t('sheet.content'),
          rating: t('sheet.rating'),
          feedback: t('sheet.feedback'),
          liked: t('liked'),
          disliked: t('disliked'),
          inputs: Object.fromEntries(SUPER_FETCH_INPUTS.map((key) => [key, t(`inputs.${key}`)])) as Record<SuperFetchInputKey, string>,
        },
      }),
    onSuccess: () => showSuccess(t('exported')),
    onError,
  });

  const onGenerate = () => {
    setTouched(true);
    if (mode === 'feedback') setFeedbackTouched(true);
    if (missing.length > 0 || feedbackMissing || count < 1) return;
    generate.mutate();
  };
  const reset = () => {
    setInputs(EMPTY);
    setFile(null);
    uploaded.current = null;
    setCountInput(SUPER_FETCH_OUTPUTS_DEFAULT);
    setFeedback('');
    setLiked('none');
    setTouched(false);
    setFeedbackTouched(false);
    setMode('input');
    showSuccess(t('reset'));
  };

  const hasResults = runs.some((run) => run.outputs.some((o) => o.content));

  return (
    <Stack gap="md" data-testid="super-fetch-page">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <>
            <Button variant="default" onClick={reset} data-testid="super-fetch-reset">
              {t('resetAction')}
            </Button>
            <Button variant="default" color="red" onClick={() => clean.mutate()} disabled={runs.length === 0 || assistantId === undefined} loading={clean.isPending} data-testid="super-fetch-clean">
              {t('clean')}
            </Button>
            <Button
              leftSection={<IconFileSpreadsheet size={16} aria-hidden />}
              onClick={() => exporting.mutate()}
              disabled={!hasResults}
              loading={exporting.isPending}
              data-testid="super-fetch-export"
            >
              {t('export')}
            </Button>
          </>
        }
      />
      {avatar.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void avatar.refetch()} retryLabel={t('retry')} />}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Card withBorder>
            <Stack gap="sm">
              <SegmentedControl
                value={mode}
                onChange={(value) => setMode(value as 'input' | 'feedback')}
                data={[
                  { value: 'input', label: t('mode.input') },
                  { value: 'feedback', label: t('mode.feedback'), disabled: !latest },
                ]}
                data-testid="super-fetch-mode"
              />
              {mode === 'input' ? (
                <>
                  {SUPER_FETCH_INPUTS.map((key) => {
                    const required = SUPER_FETCH_REQUIRED.includes(key);
                    const props = {
                      label: t(`inputs.${key}`),
                      placeholder: t(`placeholders.${key}`),
                      required,
                      value: inputs[key],
                      error: touched && required && !inputs[key].trim() ? t('required') : undefined,
                      onChange: (e: { currentTarget: { value: string } }) => {
                        const value = e.currentTarget.value;
                        setInputs((old) => ({ ...old, [key]: value }));
                      },
                      'data-testid': `super-fetch-input-${key}`,
                    };
                    return MULTILINE.includes(key) ? <Textarea key={key} autosize minRows={2} {...props} /> : <TextInput key={key} {...props} />;
                  })}
                  <FileInput label={t('file')} description={t('fileHint')} accept={ACCEPT} value={file} onChange={setFile} clearable data-testid="super-fetch-file" />
                </>
              ) : (
                <>
                  <SegmentedControl
                    value={liked}
                    onChange={(value) => setLiked(value as Liked)}
                    data={[
                      { value: 'liked', label: t('liked') },
                      { value: 'disliked', label: t('disliked') },
                      { value: 'none', label: t('noRating') },
                    ]}
                    data-testid="super-fetch-feedback-liked"
                  />
                  <Textarea
                    label={t('feedback')}
                    placeholder={t('feedbackPlaceholder')}
                    required
                    autosize
                    minRows={3}
                    value={feedback}
                    error={feedbackTouched && !feedback.trim() ? t('feedbackRequired') : undefined}
                    onChange={(e) => setFeedback(e.currentTarget.value)}
                    data-testid="super-fetch-feedback"
                  />
                </>
              )}
              <NumberInput
                label={t('outputs')}
                min={SUPER_FETCH_OUTPUTS_MIN}
                max={SUPER_FETCH_OUTPUTS_MAX}
                // Clamped on blur, not while typing: a strict clamp drops the '-' of '-1' and leaves 1.
                clampBehavior="blur"
                allowDecimal={false}
                value={countInput}
                onChange={setCountInput}
                data-testid="super-fetch-outputs"
              />
              <Group>
                {runningRuns.length > 0 ? (
                  <Button color="red" variant="light" leftSection={<IconPlayerStopFilled size={16} aria-hidden />} onClick={stopAll} data-testid="super-fetch-stop">
                    {t('stop')}
                  </Button>
                ) : (
                  <Button onClick={onGenerate} disabled={count < 1 || assistantId === undefined} loading={generate.isPending} data-testid="super-fetch-generate">
                    {mode === 'feedback' ? t('generateModified') : t('generate')}
                  </Button>
                )}
              </Group>
            </Stack>
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="sm" data-testid="super-fetch-results">
            <Title order={2} fz="lg">
              {t('results')}
            </Title>
            {history.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void history.refetch()} retryLabel={t('retry')} />}
            {history.isLoading && <Text c="dimmed">{t('loading')}</Text>}
            {history.data && runs.length === 0 && <Text c="dimmed">{t('empty')}</Text>}
            {runs.map((run) => (
              <Stack key={run.run_id} gap="xs" data-testid={`super-fetch-run-${run.run_id}`}>
                <Text size="sm" c="dimmed">
                  {run.inputs.topic} · {formatDateTime(run.createdAt)}
                  {run.feedback ? ` · ${t('feedbackRound')}` : ''}
                  {run.file ? ` · ${run.file.name}` : ''}
                </Text>
                {run.outputs.map((output) => (
                  <OutputCard
                    key={output.output_id}
                    output={output}
                    onRate={(value) => rate.mutate({ id: output.output_id, value })}
                    onStop={() => stop.mutate({ runId: run.run_id, outputId: output.output_id })}
                  />
                ))}
              </Stack>
            ))}
            {history.data && history.data.total > runs.length && (
              <Button variant="subtle" onClick={() => setLimit((l) => l + SUPER_FETCH_HISTORY_PAGE)} data-testid="super-fetch-more">
                {t('more')}
              </Button>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function OutputCard({ output, onRate, onStop }: { output: SuperFetchOutput; onRate: (liked: boolean | null) => void; onStop: () => void }) {
  const { t } = useTranslation('super-fetch');
  const active = isRunning(output);
  const rendered = useRef<HTMLDivElement>(null);
  const copy = () => {
    const content = output.content ?? '';
    void copyOutput(rendered.current?.innerHTML ?? '', markdownToPlainText(content), t('copied'));
  };
  return (
    <Card withBorder padding="sm" data-testid={`super-fetch-output-${output.output_id}`}>
      <Stack gap={6}>
        <Group justify="space-between">
          <Badge variant="light">{t('outputNumber', { n: output.position })}</Badge>
          {active && (
            <Group gap={4}>
              <Loader size="xs" aria-label={t('writing')} />
              {output.abilities.stop && (
                <ActionIcon variant="subtle" color="red" aria-label={t('stopOutput', { n: output.position })} onClick={onStop} data-testid="super-fetch-stop-output">
                  <IconPlayerStopFilled size={14} aria-hidden />
                </ActionIcon>
              )}
            </Group>
          )}
          {output.status === 'stopped' && (
            <Badge color="gray" variant="light" data-testid="super-fetch-output-stopped">
              {t('stopped')}
            </Badge>
          )}
          {output.status === 'failed' && (
            <Badge color="red" variant="light" data-testid="super-fetch-output-failed">
              {t('failed')}
            </Badge>
          )}
        </Group>
        {output.content ? (
          <div ref={rendered} data-testid="super-fetch-output-content">
            <MessageMarkdown content={output.content} streaming={active} />
          </div>
        ) : (
          <Text c="dimmed" data-testid="super-fetch-output-content">
            {t('pending')}
          </Text>
        )}
        <Group gap={4}>
          <ActionIcon variant="subtle" aria-label={t('copy')} disabled={!output.content} onClick={copy} data-testid="super-fetch-copy">
            <IconCopy size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant={output.liked === true ? 'filled' : 'subtle'}
            aria-label={t('like')}
            aria-pressed={output.liked === true}
            disabled={!output.abilities.rate}
            onClick={() => onRate(output.liked === true ? null : true)}
            data-testid="super-fetch-like"
          >
            <IconThumbUp size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant={output.liked === false ? 'filled' : 'subtle'}
            aria-label={t('dislike')}
            aria-pressed={output.liked === false}
            disabled={!output.abilities.rate}
            onClick={() => onRate(output.liked === false ? null : false)}
            data-testid="super-fetch-dislike"
          >
            <IconThumbDown size={16} aria-hidden />
          </ActionIcon>
        </Group>
      </Stack>
    </Card>
  );
}

// The avatar's outputs (spec part 2 §7 "Outputs"; issue 13 item 5): generate from a prompt (the text arrives
// with the `output` event), rate (liked outputs feed the next training), edit and delete; open its thread
// of follow-ups (OutputThread.tsx).
import { ActionIcon, Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { SocketEvents } from '@pluma/common/events';
import type { Output, OutputEventPayload, OutputList } from '@pluma/common/outputs';
import { IconMessages, IconThumbDown, IconThumbUp, IconTrash, IconPencil } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../api/socket';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { useErrorHandler } from '../../ui/use-error-handler';
import { OutputThread } from './OutputThread';
import { deleteOutput, editOutput, generateOutputs, outputsKey, rateOutput, useOutputs } from './trainings-api';

export function OutputsPanel({ avatarId }: { avatarId: number }) {
  const { t } = useTranslation('trainings');
  const queryClient = useQueryClient();
  const list = useOutputs(avatarId);
  const handleError = useErrorHandler();
  const onError = (error: unknown) => handleError(error, { premiumAsMessage: true, showValidation: true });
  const [prompt, setPrompt] = useState('');
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  // The output whose thread is open (one at a time).
  const [threadOf, setThreadOf] = useState<number | null>(null);
  const key = outputsKey(avatarId);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const replace = (output: Output) =>
    queryClient.setQueryData<OutputList>(key, (old) => (old ? { ...old, outputs: old.outputs.map((o) => (o.output_id === output.output_id ? output : o)) } : old));

  useSocketEvent<OutputEventPayload>(SocketEvents.output, (payload) => {
    if (payload.avatar_id === avatarId) replace(payload.output);
  });

  const generate = useMutation({
    mutationFn: () => generateOutputs(avatarId, prompt.trim()),
    onSuccess: () => {
      setPrompt('');
      refresh();
    },
    onError,
  });
  const rate = useMutation({ mutationFn: ({ id, liked }: { id: number; liked: boolean | null }) => rateOutput(id, liked), onSuccess: replace, onError });
  const save = useMutation({
    mutationFn: ({ id, text }: { id: number; text: string }) => editOutput(id, text),
    onSuccess: (output) => {
      setEditing(null);
      replace(output);
    },
    onError,
  });
  const remove = useMutation({ mutationFn: (id: number) => deleteOutput(id), onSuccess: refresh, onError });

  return (
    <Card withBorder data-testid="outputs-panel">
      <Stack gap="sm">
        <Title order={3}>{t('outputs.title')}</Title>
        <Textarea label={t('outputs.prompt')} value={prompt} onChange={(e) => setPrompt(e.currentTarget.value)} autosize minRows={2} data-testid="output-prompt" />
        <Group>
          <Button onClick={() => generate.mutate()} disabled={!prompt.trim()} loading={generate.isPending} data-testid="generate-output">
            {t('outputs.generate')}
          </Button>
        </Group>
        {list.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
        {list.isLoading && <Text c="dimmed">{t('loading')}</Text>}
        {list.data?.outputs.length === 0 && <Text c="dimmed">{t('outputs.empty')}</Text>}
        {list.data?.outputs.map((output) => (
          <Card key={output.output_id} withBorder padding="sm" data-testid={`output-${output.output_id}`}>
            <Stack gap={6}>
              <Text size="sm" c="dimmed">
                {output.prompt}
              </Text>
              {editing?.id === output.output_id ? (
                <>
                  <Textarea value={editing.text} onChange={(e) => setEditing({ id: output.output_id, text: e.currentTarget.value })} autosize minRows={3} data-testid="output-edit" />
                  <Group gap="xs">
                    <Button size="xs" onClick={() => save.mutate(editing)} disabled={!editing.text.trim()} loading={save.isPending} data-testid="save-output">
                      {t('outputs.save')}
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setEditing(null)}>
                      {t('outputs.cancel')}
                    </Button>
                  </Group>
                </>
              ) : (
                <Text style={{ whiteSpace: 'pre-wrap' }} data-testid="output-content">
                  {output.status === 'pending' ? t('outputs.pending') : output.status === 'failed' ? t('outputs.failed') : output.content}
                </Text>
              )}
              <Group gap={4}>
                <ActionIcon
                  variant={output.liked === true ? 'filled' : 'subtle'}
                  aria-label={t('outputs.like')}
                  aria-pressed={output.liked === true}
                  disabled={!output.abilities.rate}
                  onClick={() => rate.mutate({ id: output.output_id, liked: output.liked === true ? null : true })}
                  data-testid="like-output"
                >
                  <IconThumbUp size={16} aria-hidden />
                </ActionIcon>
                <ActionIcon
                  variant={output.liked === false ? 'filled' : 'subtle'}
                  aria-label={t('outputs.dislike')}
                  aria-pressed={output.liked === false}
                  disabled={!output.abilities.rate}
                  onClick={() => rate.mutate({ id: output.output_id, liked: output.liked === false ? null : false })}
                  data-testid="dislike-output"
                >
                  <IconThumbDown size={16} aria-hidden />
                </ActionIcon>
                {output.abilities.update && (
                  <ActionIcon variant="subtle" aria-label={t('outputs.edit')} onClick={() => setEditing({ id: output.output_id, text: output.content ?? '' })} data-testid="edit-output">
                    <IconPencil size={16} aria-hidden />
                  </ActionIcon>
                )}
                <ActionIcon variant="subtle" color="red" aria-label={t('outputs.delete')} onClick={() => remove.mutate(output.output_id)} data-testid="delete-output">
                  <IconTrash size={16} aria-hidden />
                </ActionIcon>
                {output.status !== 'pending' && (
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconMessages size={14} aria-hidden />}
                    aria-expanded={threadOf === output.output_id}
                    onClick={() => setThreadOf(threadOf === output.output_id ? null : output.output_id)}
                    data-testid="toggle-thread"
                  >
                    {threadOf === output.output_id ? t('thread.close') : t('thread.open')}
                  </Button>
                )}
              </Group>
              {threadOf === output.output_id && <OutputThread outputId={output.output_id} canMessage={output.abilities.message} />}
            </Stack>
          </Card>
        ))}
      </Stack>
    </Card>
  );
}

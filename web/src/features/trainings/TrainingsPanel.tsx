// The avatar page's trainings (spec part 2 §2 "Training actions: sync, refine, execute, delete"; issue 13
// item 4): create, the cost note before executing (spec part 1 §1: 20–60 USD in English, 20–100 USD in
// Spanish, billed to the user's own account), live progress from the `training` socket event, sync,
// refine, delete, and choosing a finished training's model for the avatar.
import { Badge, Button, Card, Group, Progress, Stack, Text, TextInput, Title } from '@mantine/core';
import { TRAINING_COST_QUOTE, TRAINING_EVENT, type Training, type TrainingEventPayload, type TrainingList } from '@pluma/common/trainings';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../api/socket';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { useErrorHandler } from '../../ui/use-error-handler';
import { createTraining, deleteTraining, trainingAction, trainingsKey, updateTraining, useTrainings } from './trainings-api';

export function TrainingsPanel({ avatarId }: { avatarId: number }) {
  const { t, i18n } = useTranslation('trainings');
  const queryClient = useQueryClient();
  const list = useTrainings(avatarId);
  const handleError = useErrorHandler();
  const [name, setName] = useState('');
  const [confirm, setConfirm] = useState<{ kind: 'execute' | 'delete'; training: Training } | null>(null);
  const key = trainingsKey(avatarId);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });

  // Live progress: the saved row replaces the listed one.
  useSocketEvent<TrainingEventPayload>(TRAINING_EVENT, (payload) => {
    if (payload.avatar_id !== avatarId) return;
    queryClient.setQueryData<TrainingList>(key, (old) =>
      old ? { ...old, trainings: old.trainings.map((row) => (row.training_id === payload.training_id ? payload.training : row)) } : old,
    );
  });

  const onError = (error: unknown) => handleError(error, { premiumAsMessage: true, showValidation: true });
  const create = useMutation({
    mutationFn: () => createTraining(avatarId, name.trim()),
    onSuccess: () => {
      setName('');
      refresh();
    },
    onError,
  });
  const act = useMutation({
    mutationFn: ({ action, id }: { action: 'execute' | 'sync' | 'refine'; id: number }) => trainingAction(action, id),
    onSuccess: refresh,
    onError,
  });
  const select = useMutation({ mutationFn: (training: Training) => updateTraining({ training_id: training.training_id, selected: !training.selected }), onSuccess: refresh, onError });
  const remove = useMutation({
    mutationFn: (training: Training) => deleteTraining(training.training_id),
    onSuccess: (_, training) => {
      showSuccess(t('deleted', { name: training.name }));
      setConfirm(null);
      refresh();
    },
    onError,
  });
  const quote = TRAINING_COST_QUOTE[i18n.language === 'es' ? 'es' : 'en'];

  return (
    <Card withBorder data-testid="trainings-panel">
      <Stack gap="sm">
        <Title order={3}>{t('title')}</Title>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (name.trim()) create.mutate();
          }}
        >
          <Group align="end">
            <TextInput label={t('name')} value={name} onChange={(e) => setName(e.currentTarget.value)} maxLength={120} data-testid="training-name" />
            <Button type="submit" disabled={!name.trim()} loading={create.isPending} data-testid="create-training">
              {t('create')}
            </Button>
          </Group>
        </form>
        {list.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void list.refetch()} retryLabel={t('retry')} />}
        {list.isLoading && <Text c="dimmed">{t('loading')}</Text>}
        {list.data?.trainings.length === 0 && <Text c="dimmed">{t('empty')}</Text>}
        {list.data?.trainings.map((training) => (
          <Card key={training.training_id} withBorder padding="sm" data-testid={`training-${training.training_id}`}>
            <Stack gap={6}>
              <Group justify="space-between">
                <Text fw={600}>{training.name}</Text>
                <Group gap={6}>
                  {training.selected && <Badge color="green">{t('inUse')}</Badge>}
                  <Badge variant="light" data-testid="training-status">
                    {t(`status.${training.status}`)}
                  </Badge>
                </Group>
              </Group>
              {(training.status === 'queued' || training.status === 'validating_files' || training.status === 'running') && (
                <Progress value={training.progress} aria-label={t('progress')} data-testid="training-progress" animated />
              )}
              {training.error && (
                <Text c="red" size="sm">
                  {training.error.message}
                </Text>
              )}
              {training.fine_tuned_model && (
                <Text size="xs" c="dimmed">
                  {t('model', { model: training.fine_tuned_model })}
                </Text>
              )}
              <Group gap="xs">
                {training.abilities.execute && (
                  <Button size="xs" onClick={() => setConfirm({ kind: 'execute', training })} data-testid="execute-training">
                    {t('execute')}
                  </Button>
                )}
                {training.abilities.sync && (
                  <Button size="xs" variant="default" onClick={() => act.mutate({ action: 'sync', id: training.training_id })} data-testid="sync-training">
                    {t('sync')}
                  </Button>
                )}
                {training.abilities.refine && (
                  <Button size="xs" variant="default" onClick={() => act.mutate({ action: 'refine', id: training.training_id })} data-testid="refine-training">
                    {t('refine')}
                  </Button>
                )}
                {training.abilities.select && (
                  <Button size="xs" variant="light" onClick={() => select.mutate(training)} data-testid="select-training">
                    {training.selected ? t('unselect') : t('select')}
                  </Button>
                )}
                <Button size="xs" color="red" variant="subtle" onClick={() => setConfirm({ kind: 'delete', training })} data-testid="delete-training">
                  {t('delete')}
                </Button>
              </Group>
            </Stack>
          </Card>
        ))}
      </Stack>
      <ConfirmModal
        opened={confirm?.kind === 'execute'}
        onClose={() => setConfirm(null)}
        title={t('executeTitle')}
        warning={t('costNote', { min: quote.min, max: quote.max })}
        confirmLabel={t('execute')}
        onConfirm={() => {
          if (confirm) act.mutate({ action: 'execute', id: confirm.training.training_id });
          setConfirm(null);
        }}
        pending={act.isPending}
        data-testid="execute-training-modal"
      />
      <ConfirmModal
        opened={confirm?.kind === 'delete'}
        onClose={() => setConfirm(null)}
        title={t('deleteTitle')}
        warning={t('deleteWarning', { name: confirm?.training.name ?? '' })}
        confirmLabel={t('delete')}
        onConfirm={() => confirm && remove.mutate(confirm.training)}
        pending={remove.isPending}
        data-testid="delete-training-modal"
      />
    </Card>
  );
}

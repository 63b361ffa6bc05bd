// The avatar's refine and sync on its page (spec part 2 §2 "refine (the model rewrites the context from files
// and liked outputs), sync (re-index the files)"; §4 avatar actions take up to 15 minutes). A refine runs on
// the server's job queue: its state comes with the avatar (a reload shows the truth) and each change arrives
// as the `avatar_refine` socket event, which refreshes the avatar (and its context once it is done).
import { Alert, Group, Loader, Text } from '@mantine/core';
import { AVATAR_REFINE_EVENT, type AvatarRefine, type AvatarRefineEventPayload } from '@pluma/common/avatars';
import { IconAlertTriangle, IconSparkles } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../api/socket';
import { showSuccess } from '../../ui/alerts';
import { avatarKey } from './avatars-api';

/** Refreshes the avatar when its refine changes; says so when it is done. */
export function useRefineEvents(avatarId: number) {
  const { t } = useTranslation('avatars');
  const queryClient = useQueryClient();
  useSocketEvent<AvatarRefineEventPayload>(AVATAR_REFINE_EVENT, (payload) => {
    if (payload.avatar_id !== avatarId) return;
    void queryClient.invalidateQueries({ queryKey: avatarKey(avatarId) });
    if (payload.refine.status === 'done') showSuccess(t('refine.done'));
  });
}

/** Known reasons in the reader's language; the provider's own words otherwise. */
export function refineFailure(refine: AvatarRefine, t: (key: string, options?: Record<string, unknown>) => string): string {
  const code = refine.error_code ?? '';
  const known = ['ai_key_required', 'no_material', 'empty_answer', 'provider_unreachable'];
  if (known.includes(code)) return t(`refine.errors.${code}`);
  return refine.error_message || code || t('refine.errors.unknown');
}

export function RefineStatus({ refine }: { refine: AvatarRefine | null }) {
  const { t, i18n } = useTranslation('avatars');
  if (!refine || refine.status === 'idle') return null;
  if (refine.status === 'queued' || refine.status === 'running') {
    return (
      <Alert variant="light" color="blue" data-testid="refine-status" data-status={refine.status}>
        <Group gap="sm" wrap="nowrap">
          <Loader size="sm" aria-hidden />
          <Text size="sm">{t(refine.status === 'queued' ? 'refine.queued' : 'refine.running')}</Text>
        </Group>
      </Alert>
    );
  }
  if (refine.status === 'failed') {
    return (
      <Alert variant="light" color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title={t('refine.failedTitle')} data-testid="refine-status" data-status="failed">
        <Text size="sm">{t('refine.failed', { reason: refineFailure(refine, t) })}</Text>
      </Alert>
    );
  }
  const when = refine.updatedAt ? new Date(refine.updatedAt).toLocaleString(i18n.language) : '';
  return (
    <Group gap={6} data-testid="refine-status" data-status="done">
      <IconSparkles size={16} aria-hidden />
      <Text size="xs" c="dimmed">
        {t('refine.doneAt', { when })}
      </Text>
    </Group>
  );
}

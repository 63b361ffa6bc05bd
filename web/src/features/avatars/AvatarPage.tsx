// /avatars/{avatar_id} (spec part 2 §2 "Avatar page"): the context card (edit, public toggle for admins),
// the templates panel (Apply opens the templates' apply screen with this avatar), the files tabs (with each
// file's index status), and the chat, refine, sync, clone, combine and delete actions the avatar's abilities
// allow. The breadcrumb shows the avatar's name.
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconArrowsJoin, IconCopy, IconInfoCircle, IconMessageCircle, IconRefresh, IconSparkles, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/api-error';
import { useBreadcrumbLabel } from '../../platform/shell/breadcrumb-labels';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { Modal } from '../../ui/Modal';
import { PageHeader } from '../../ui/PageHeader';
import { PageLoader } from '../../ui/PageLoader';
import { screenText } from '../../ui/screen-text';
import { usePageTitle } from '../../ui/use-page-title';
import { useCreateConversation } from '../conversations';
import { AiKeyPrompt } from './AiKeyPrompt';
import { AVATARS_KEY, avatarKey, deleteAvatar, isAiKeyRequired, refineAvatar, syncAvatar, useAvatar } from './avatars-api';
import { CloneModal } from './CloneModal';
import { CombineModal } from './CombineModal';
import { ContextCard } from './ContextCard';
import { FilesPanel } from './FilesPanel';
import { RefineStatus, useRefineEvents } from './RefineStatus';
import { TemplatesPanel } from './TemplatesPanel';
import { OutputsPanel, TrainingsPanel } from '../trainings';
import { useAvatarErrors } from './use-avatar-errors';

export default function AvatarPage() {
  const { t } = useTranslation('avatars');
  const params = useParams();
  const avatarId = Number(params.avatarId);
  const valid = Number.isInteger(avatarId) && avatarId > 0;
  const avatar = useAvatar(valid ? avatarId : null);
  usePageTitle(avatar.data?.name ?? t('list.title'));
  useBreadcrumbLabel(`/avatars/${params.avatarId ?? ''}`, avatar.data?.name);

  if (!valid || (avatar.error instanceof ApiError && avatar.error.status === 404)) {
    return (
      <Stack gap="sm" data-testid="avatar-not-found">
        <Text>{t('page.notFound')}</Text>
        <Anchor component={Link} to="/avatars">
          {t('page.back')}
        </Anchor>
      </Stack>
    );
  }
  if (avatar.isError) {
    return (
      <LoadErrorAlert
        text={screenText({ failure: avatar.error, options: { premiumAsMessage: true } }, t) ?? t('page.loadError')}
        onRetry={() => void avatar.refetch()}
        retryLabel={t('retry')}
        data-testid="avatar-error"
      />
    );
  }
  if (!avatar.data) return <PageLoader />;
  return <AvatarView avatar={avatar.data} />;
}

function AvatarView({ avatar }: { avatar: NonNullable<ReturnType<typeof useAvatar>['data']> }) {
  const { t } = useTranslation('avatars');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<'clone' | 'combine' | 'delete' | 'refine' | null>(null);
  const [keyMissing, setKeyMissing] = useState(false);
  const onError = useAvatarErrors();
  useRefineEvents(avatar.avatar_id);
  const saveAvatar = (next: typeof avatar) => queryClient.setQueryData(avatarKey(avatar.avatar_id), next);
  const refine = useMutation({
    mutationFn: () => refineAvatar(avatar.avatar_id),
    onSuccess: (next) => {
      setDialog(null);
      setKeyMissing(false);
      saveAvatar(next);
    },
    onError: (error) => {
      setDialog(null);
      if (isAiKeyRequired(error)) setKeyMissing(true);
      else onError(error);
    },
  });
  const sync = useMutation({
    mutationFn: () => syncAvatar(avatar.avatar_id),
    onSuccess: (next) => {
      saveAvatar(next);
      showSuccess(t('sync.started'));
    },
    onError,
  });
  const createConversation = useCreateConversation();
  const startChat = () =>
    createConversation.mutate(
      { name: avatar.name, avatar_id: avatar.avatar_id },
      { onSuccess: (conversation) => conversation && void navigate(`/conversations/${conversation.conversation_id}`), onError },
    );
  const refining = avatar.refine?.status === 'queued' || avatar.refine?.status === 'running';
  const remove = useMutation({
    mutationFn: () => deleteAvatar(avatar.avatar_id),
    onSuccess: () => {
      showSuccess(t('page.deleted'));
      void queryClient.invalidateQueries({ queryKey: AVATARS_KEY });
      void navigate('/avatars');
    },
    onError,
  });
  const author = `${avatar.author.name} ${avatar.author.last_name}`.trim();

  return (
    <Stack gap="md" data-testid="avatar-page">
      <PageHeader
        title={avatar.name}
        description={avatar.description || undefined}
        actions={
          <Group gap="xs">
            <Button leftSection={<IconMessageCircle size={16} aria-hidden />} onClick={startChat} loading={createConversation.isPending} data-testid="chat-with-avatar">
              {t('page.chat')}
            </Button>
            {avatar.abilities.refine && (
              <Button
                variant="default"
                leftSection={<IconSparkles size={16} aria-hidden />}
                onClick={() => setDialog('refine')}
                disabled={refining}
                loading={refine.isPending}
                data-testid="refine-avatar"
              >
                {t('refine.action')}
              </Button>
            )}
            {avatar.abilities.sync && (
              <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => sync.mutate()} loading={sync.isPending} data-testid="sync-avatar">
                {t('sync.action')}
              </Button>
            )}
            {avatar.abilities.clone && (
              <Button variant="default" leftSection={<IconCopy size={16} aria-hidden />} onClick={() => setDialog('clone')} data-testid="clone-avatar">
                {t('page.clone')}
              </Button>
            )}
            {avatar.abilities.update && (
              <Button variant="default" leftSection={<IconArrowsJoin size={16} aria-hidden />} onClick={() => setDialog('combine')} data-testid="combine-avatar">
                {t('page.combine')}
              </Button>
            )}
            {avatar.abilities.delete && (
              <Button color="red" variant="light" leftSection={<IconTrash size={16} aria-hidden />} onClick={() => setDialog('delete')} data-testid="delete-avatar">
                {t('page.delete')}
              </Button>
            )}
          </Group>
        }
      />
      {!avatar.abilities.update && (
        <Alert variant="light" icon={<IconInfoCircle size={18} aria-hidden />} data-testid="read-only-note">
          {t('page.readOnly', { name: author })}
        </Alert>
      )}
      {keyMissing && <AiKeyPrompt />}
      <RefineStatus refine={avatar.refine} />
      <ContextCard key={avatar.updatedAt} avatar={avatar} />
      <TemplatesPanel avatarId={avatar.avatar_id} />
      <FilesPanel avatar={avatar} />
      <OutputsPanel avatarId={avatar.avatar_id} />
      {avatar.abilities.update && <TrainingsPanel avatarId={avatar.avatar_id} />}
      <CloneModal avatar={avatar} opened={dialog === 'clone'} onClose={() => setDialog(null)} />
      <CombineModal avatar={avatar} opened={dialog === 'combine'} onClose={() => setDialog(null)} />
      <Modal
        opened={dialog === 'refine'}
        onClose={() => setDialog(null)}
        title={t('refine.title')}
        confirmLabel={t('refine.confirm')}
        onConfirm={() => refine.mutate()}
        confirmLoading={refine.isPending}
        data-testid="refine-modal"
      >
        <Text size="sm">{t('refine.explain')}</Text>
      </Modal>
      <ConfirmModal
        opened={dialog === 'delete'}
        onClose={() => setDialog(null)}
        title={t('page.deleteTitle')}
        warning={t('page.deleteWarning', { name: avatar.name })}
        confirmLabel={t('page.delete')}
        onConfirm={() => remove.mutate()}
        pending={remove.isPending}
        data-testid="delete-avatar-modal"
      />
    </Stack>
  );
}

// The avatar's files (spec part 2 §2 "files tabs (files, editable files) with upload, download, delete and
// edit"; §5 editable files .txt only; §9 names shortened after 30 characters), each with its index status.
// Each row offers what its abilities allow: a public avatar's reader sees the names only, never a download.
// An editable .txt can be uploaded or started blank ("New text file", issue 30 item 20), then written here.
import { Badge, Button, FileButton, Group, Stack, Table, Tabs, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { AVATAR_FILE_ACCEPT, shortFileName, type AvatarFile, type AvatarFileIndex, type AvatarWithFiles } from '@pluma/common/avatars';
import { ingestionFailureParams, isIngestionFailure } from '@pluma/common/ingestion';
import { IconDownload, IconEdit, IconFilePlus, IconRefresh, IconTrash, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showSuccess } from '../../ui/alerts';
import { ConfirmModal } from '../../ui/ConfirmModal';
import { downloadBlob } from '../../ui/download';
import { Modal } from '../../ui/Modal';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { avatarKey, createAvatarTextFile, deleteAvatarFile, downloadAvatarFile, editAvatarFileText, retryAvatarFile, uploadAvatarFile } from './avatars-api';
import { useAvatarErrors } from './use-avatar-errors';

export function FilesPanel({ avatar }: { avatar: AvatarWithFiles }) {
  const { t } = useTranslation('avatars');
  const files = avatar.avatar_files.filter((f) => !f.editable);
  const editable = avatar.avatar_files.filter((f) => f.editable);
  return (
    <Tabs defaultValue="files" keepMounted={false} data-testid="files-panel">
      <Tabs.List>
        <Tabs.Tab value="files">{t('files.tab')}</Tabs.Tab>
        <Tabs.Tab value="editable" data-testid="editable-tab">
          {t('files.editableTab')}
        </Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="files" pt="md">
        <FileList avatar={avatar} files={files} editable={false} />
      </Tabs.Panel>
      <Tabs.Panel value="editable" pt="md">
        <FileList avatar={avatar} files={editable} editable />
      </Tabs.Panel>
    </Tabs>
  );
}

function FileList({ avatar, files, editable }: { avatar: AvatarWithFiles; files: AvatarFile[]; editable: boolean }) {
  const { t } = useTranslation('avatars');
  const queryClient = useQueryClient();
  const onError = useAvatarErrors();
  const [deleting, setDeleting] = useState<AvatarFile | null>(null);
  const [editingText, setEditingText] = useState<AvatarFile | null>(null);
  const [naming, setNaming] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: avatarKey(avatar.avatar_id) });
  const upload = useMutation({
    mutationFn: (file: File) => uploadAvatarFile(avatar.avatar_id, file, editable),
    onSuccess: () => {
      showSuccess(t('files.uploaded'));
      void refresh();
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: (file: AvatarFile) => deleteAvatarFile(avatar.avatar_id, file.file_id),
    onSuccess: () => {
      showSuccess(t('files.deleted'));
      setDeleting(null);
      void refresh();
    },
    onError,
  });
  const retry = useMutation({
    mutationFn: (file: AvatarFile) => retryAvatarFile(avatar.avatar_id, file.file_id),
    onSuccess: () => {
      showSuccess(t('files.retried'));
      void refresh();
    },
    onError,
  });
  const download = useMutation({
    mutationFn: async (file: AvatarFile) => downloadBlob(await downloadAvatarFile(avatar.avatar_id, file.file_id), file.file_data.name),
    onError,
  });

  return (
    <Stack gap="sm">
      {avatar.abilities.add_file && (
        <Group gap="sm">
          <FileButton onChange={(file) => file && upload.mutate(file)} accept={editable ? '.txt,text/plain' : AVATAR_FILE_ACCEPT}>
            {(props) => (
              <Button {...props} leftSection={<IconUpload size={16} aria-hidden />} loading={upload.isPending} variant="light" data-testid={editable ? 'upload-editable' : 'upload-file'}>
                {editable ? t('files.uploadEditable') : t('files.upload')}
              </Button>
            )}
          </FileButton>
          {editable && (
            <Button leftSection={<IconFilePlus size={16} aria-hidden />} variant="light" onClick={() => setNaming(true)} data-testid="new-text-file">
              {t('files.newText')}
            </Button>
          )}
          <Text size="xs" c="dimmed">
            {editable ? t('files.uploadEditableHint') : t('files.uploadHint')}
          </Text>
        </Group>
      )}
      {files.length === 0 ? (
        <Text size="sm" c="dimmed" data-testid="files-empty">
          {t('files.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('files.name')}</Table.Th>
                <Table.Th>{t('files.type')}</Table.Th>
                <Table.Th>{t('files.index.column')}</Table.Th>
                <Table.Th ta="right">{t('files.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {files.map((file) => {
                const name = file.file_data.name;
                return (
                  <Table.Tr key={file.avatar_file_id} data-testid="file-row">
                    <Table.Td>
                      <Tooltip label={name} disabled={shortFileName(name) === name}>
                        <Text size="sm" data-testid="file-name">
                          {shortFileName(name)}
                        </Text>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm" tt="uppercase" c="dimmed">
                        {file.file_data.type}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <IndexStatus index={file.index} />
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {file.abilities.download && (
                          <TooltipIconButton tooltip={t('files.download', { name })} onClick={() => download.mutate(file)} data-testid="download-file">
                            <IconDownload size={16} aria-hidden />
                          </TooltipIconButton>
                        )}
                        {file.abilities.edit_text && (
                          <TooltipIconButton tooltip={t('files.edit', { name })} onClick={() => setEditingText(file)} data-testid="edit-file">
                            <IconEdit size={16} aria-hidden />
                          </TooltipIconButton>
                        )}
                        {avatar.abilities.update && file.index.status === 'failed' && (
                          <TooltipIconButton tooltip={t('files.retry', { name })} onClick={() => retry.mutate(file)} data-testid="retry-file">
                            <IconRefresh size={16} aria-hidden />
                          </TooltipIconButton>
                        )}
                        {file.abilities.delete && (
                          <TooltipIconButton tooltip={t('files.delete', { name })} color="red" onClick={() => setDeleting(file)} data-testid="delete-file">
                            <IconTrash size={16} aria-hidden />
                          </TooltipIconButton>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ConfirmModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title={t('files.deleteTitle')}
        warning={t('files.deleteWarning', { name: deleting?.file_data.name ?? '' })}
        confirmLabel={t('page.delete')}
        onConfirm={() => deleting && remove.mutate(deleting)}
        pending={remove.isPending}
        data-testid="delete-file-modal"
      />
      <EditTextModal avatarId={avatar.avatar_id} file={editingText} onClose={() => setEditingText(null)} onSaved={() => void refresh()} />
      <NewTextFileModal
        avatarId={avatar.avatar_id}
        opened={naming}
        onClose={() => setNaming(false)}
        onCreated={(created) => {
          setNaming(false);
          void refresh();
          // Straight to writing it.
          setEditingText(created);
        }}
      />
    </Stack>
  );
}

const FAILURE_REASONS = ['no_text', 'unsupported_type', 'unreadable', 'file_missing', 'embedding_failed', 'index_error', 'interrupted'];
const STATUS_COLORS: Record<AvatarFileIndex['status'], string> = { none: 'gray', queued: 'gray', indexing: 'blue', ready: 'green', failed: 'red' };

/**
 * A file's knowledge status (issue 13 item 3: queued, indexing with progress, ready, failed with the reason —
 * a scanned PDF says it has no text instead of "ready"); the page refreshes it while a file is in progress.
 */
function IndexStatus({ index }: { index: AvatarFileIndex }) {
  const { t } = useTranslation('avatars');
  const label = index.status === 'indexing' ? t('files.index.indexing', { progress: index.progress }) : t(`files.index.${index.status}`);
  // The reading pipeline's reasons name their limit (issue 27); the numbers are the server's (common/ingestion.ts).
  const failure = index.failure_reason;
  const reason = isIngestionFailure(failure)
    ? t(`files.index.reasons.${failure}`, ingestionFailureParams(failure))
    : failure && FAILURE_REASONS.includes(failure)
      ? t(`files.index.reasons.${failure}`)
      : failure;
  return (
    <Stack gap={2} data-testid="file-index" data-status={index.status}>
      <Badge variant="dot" color={STATUS_COLORS[index.status]} size="sm">
        {label}
      </Badge>
      {index.status === 'failed' && reason && (
        <Text size="xs" c="red" data-testid="file-index-reason">
          {reason}
        </Text>
      )}
    </Stack>
  );
}

/** Names a new, blank editable .txt file; once made, its text opens for writing. */
function NewTextFileModal({ avatarId, opened, onClose, onCreated }: { avatarId: number; opened: boolean; onClose: () => void; onCreated: (file: AvatarFile) => void }) {
  const { t } = useTranslation('avatars');
  return (
    <Modal opened={opened} onClose={onClose} title={t('files.newTextTitle')} data-testid="new-text-file-modal">
      {opened && <NewTextFileForm avatarId={avatarId} onClose={onClose} onCreated={onCreated} />}
    </Modal>
  );
}

function NewTextFileForm({ avatarId, onClose, onCreated }: { avatarId: number; onClose: () => void; onCreated: (file: AvatarFile) => void }) {
  const { t } = useTranslation('avatars');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const onError = useAvatarErrors({ onFieldErrors: (details) => setError(details.name ?? Object.values(details)[0] ?? null) });
  const create = useMutation({
    mutationFn: () => createAvatarTextFile(avatarId, name.trim()),
    onSuccess: (created) => {
      showSuccess(t('files.newTextCreated'));
      onCreated(created);
    },
    onError,
  });
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) create.mutate();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={t('files.newTextName')}
          description={t('files.newTextNameHint')}
          required
          data-autofocus
          maxLength={100}
          value={name}
          error={error}
          onChange={(event) => {
            setName(event.currentTarget.value);
            setError(null);
          }}
          rightSection={
            <Text size="sm" c="dimmed" aria-hidden>
              .txt
            </Text>
          }
          rightSectionWidth={48}
          data-testid="new-text-file-name"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={create.isPending}>
            {t('form.cancel')}
          </Button>
          <Button type="submit" loading={create.isPending} disabled={!name.trim()} data-testid="new-text-file-create">
            {t('files.newTextCreate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Edit an editable file's text; saved as .txt (spec part 2 §2). */
function EditTextModal({ avatarId, file, onClose, onSaved }: { avatarId: number; file: AvatarFile | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('avatars');
  return (
    <Modal opened={file !== null} onClose={onClose} title={file ? t('files.editTitle', { name: file.file_data.name }) : ''} size="xl" data-testid="edit-text-modal">
      {file && <EditTextForm key={file.file_id} avatarId={avatarId} file={file} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function EditTextForm({ avatarId, file, onClose, onSaved }: { avatarId: number; file: AvatarFile; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation('avatars');
  const original = useQuery({ queryKey: ['avatars', 'file-text', avatarId, file.file_id], queryFn: async () => (await downloadAvatarFile(avatarId, file.file_id)).text(), staleTime: 0 });
  const [text, setText] = useState<string | null>(null);
  const onError = useAvatarErrors();
  const save = useMutation({
    mutationFn: (content: string) => editAvatarFileText(avatarId, file.file_id, content),
    onSuccess: () => {
      showSuccess(t('files.saved'));
      onSaved();
      onClose();
    },
    onError,
  });
  // A new blank file is stored as one line break: it opens empty.
  const value = text ?? (original.data?.trim() ? original.data : '');
  return (
    <Stack gap="sm">
      <Textarea
        label={t('files.text')}
        autosize
        minRows={8}
        maxRows={24}
        value={value}
        placeholder={original.isPending ? t('files.loadingText') : undefined}
        disabled={original.isPending}
        onChange={(event) => setText(event.currentTarget.value)}
        data-testid="file-text"
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose} disabled={save.isPending}>
          {t('form.cancel')}
        </Button>
        <Button onClick={() => save.mutate(value)} loading={save.isPending} disabled={!value.trim() || original.isPending} data-testid="save-file-text">
          {t('form.save')}
        </Button>
      </Group>
    </Stack>
  );
}

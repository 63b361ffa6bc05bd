// What will be sent with the next prompt (issue 27 item 2): one chip per attached file with its name, size
// and state — uploading, reading (the server's ingestion pipeline), ready, or failed with the reason — and
// a clear note when the chosen model can't take the file (images for a model without vision; types that are
// neither text nor image). Text states come from GET /api/files/{id}/index-status, polled while reading.
import { Badge, CloseButton, Group, Stack, Text } from '@mantine/core';
import { ingestionFailureParams, isIngestionFailure } from '@pluma/common/ingestion';
import type { MessageFile } from '@pluma/common/messages-api';
import type { ChatModel } from '@pluma/common/models';
import { modelAcceptsImages } from '@pluma/common/rules/model-images';
import { IconFile, IconPhoto } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { LazyTooltip } from '../../ui/LazyTooltip';
import { fileIndexStatus } from './chat-api';
import { shortFileName } from './file-rules';
import { formatNumber } from '../../i18n/format';

export interface PendingAttachment extends MessageFile {
  /** Still uploading (no file id yet: negative, local). */
  uploading?: boolean;
}

const TEXT_TYPES = ['txt', 'md', 'csv', 'docx', 'pptx', 'pdf'];
const IMAGE_TYPES = ['png', 'jpg', 'gif', 'webp'];

export function fileSizeText(bytes: number, t: TFunction): string {
  if (bytes < 1024 * 1024) return t('files.size.kb', { value: Math.max(1, Math.round(bytes / 1024)) });
  return t('files.size.mb', { value: formatNumber(bytes / (1024 * 1024), undefined, { minimumFractionDigits: 1, maximumFractionDigits: 1 }) });
}

function reasonText(reason: string | null, t: TFunction): string {
  if (isIngestionFailure(reason)) return t(`files.reasons.${reason}`, ingestionFailureParams(reason));
  return reason === 'no_text' ? t('files.reasons.no_text') : t('files.reasons.other');
}

/** The model that will answer: the conversation's, or the default. */
export function answeringModel(modelId: string | null, models: readonly ChatModel[]): ChatModel | null {
  return (modelId ? models.find((m) => m.id === modelId) : models.find((m) => m.isDefault)) ?? null;
}

function Chip({ file, model, onRemove }: { file: PendingAttachment; model: ChatModel | null; onRemove: () => void }) {
  const { t } = useTranslation('chat');
  const isText = TEXT_TYPES.includes(file.type);
  const isImage = IMAGE_TYPES.includes(file.type);
  const status = useQuery({
    queryKey: ['files', file.file_id, 'index-status'],
    queryFn: () => fileIndexStatus(file.file_id),
    enabled: isText && !file.uploading,
    refetchInterval: (query) => (['ready', 'failed'].includes(query.state.data?.status ?? '') ? false : 1000),
  });
  let state: string;
  let color = 'gray';
  let note: string | null = null;
  if (file.uploading) state = t('files.state.uploading');
  else if (isText) {
    const s = status.data?.status;
    if (s === 'ready') {
      state = t('files.state.ready');
      color = 'green';
    } else if (s === 'failed') {
      state = t('files.state.failed');
      color = 'red';
      note = reasonText(status.data?.failure_reason ?? null, t);
    } else state = t('files.state.reading');
  } else if (isImage) {
    state = t('files.state.image');
    if (model && !modelAcceptsImages(model)) {
      color = 'orange';
      note = t('files.state.imageUnsupported');
    } else color = 'green';
  } else {
    state = t('files.state.unsupported');
    color = 'orange';
  }
  return (
    <Stack gap={0} data-testid="attachment-chip" data-state={status.data?.status ?? (file.uploading ? 'uploading' : 'none')}>
      <LazyTooltip label={file.name} withArrow>
        <Badge
          variant="light"
          color={color}
          tt="none"
          leftSection={isImage ? <IconPhoto size={12} aria-hidden /> : <IconFile size={12} aria-hidden />}
          rightSection={<CloseButton size="xs" aria-label={t('files.remove', { name: file.name })} onClick={onRemove} data-testid="attachment-remove" />}
        >
          {shortFileName(file.name)} · {fileSizeText(file.size, t)} · {state}
        </Badge>
      </LazyTooltip>
      {note && (
        <Text size="xs" c={color === 'red' ? 'red.7' : 'orange.8'} role="note" data-testid="attachment-note">
          {note}
        </Text>
      )}
    </Stack>
  );
}

export function AttachmentChips({ files, model, onRemove }: { files: PendingAttachment[]; model: ChatModel | null; onRemove: (fileId: number) => void }) {
  if (files.length === 0) return null;
  return (
    <Group gap="xs" wrap="wrap" data-testid="attachment-chips">
      {files.map((file) => (
        <Chip key={file.file_id} file={file} model={model} onRemove={() => onRemove(file.file_id)} />
      ))}
    </Group>
  );
}

/** The files a sent prompt carried, under it in the history. */
export function MessageFiles({ files }: { files: MessageFile[] }) {
  const { t } = useTranslation('chat');
  if (files.length === 0) return null;
  return (
    <Group gap={4} wrap="wrap" aria-label={t('files.sentWith')} data-testid="message-files">
      {files.map((file) => (
        <Badge key={file.file_id} variant="outline" color="gray" tt="none" size="sm" leftSection={IMAGE_TYPES.includes(file.type) ? <IconPhoto size={12} aria-hidden /> : <IconFile size={12} aria-hidden />}>
          {shortFileName(file.name)} · {fileSizeText(file.size, t)}
        </Badge>
      ))}
    </Group>
  );
}

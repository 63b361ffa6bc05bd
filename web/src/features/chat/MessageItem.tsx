// One message (spec part 2 §2, §4): the prompt or the answer, a typing indicator while the answer is
// pending, and its actions — edit (inline), favorite, share, Continue, Retry and Regenerate, each shown
// exactly when the message's abilities allow it (DESIGN.md §7) — plus copy and export to PDF or Word once
// its text is final. An answer the user stopped says so with a small mark (issue 30 item 1).
import { ActionIcon, Badge, Box, Button, Group, Menu, Stack, Text, Textarea, ThemeIcon, Tooltip } from '@mantine/core';
import { MESSAGE_CONTENT_MAX_CHARS } from '@pluma/common/constants';
import {
  IconCopy,
  IconDownload,
  IconFileTypePdf,
  IconFileWord,
  IconPencil,
  IconSparkles,
  IconStar,
  IconStarFilled,
  IconUser,
} from '@tabler/icons-react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyToClipboard } from '../../ui/clipboard';
import { TooltipIconButton } from '../../ui/TooltipIconButton';
import { useErrorHandler } from '../../ui/use-error-handler';
import { exportMessage, type ExportFormat } from './chat-api';
import classes from './Chat.module.css';
import { isActive, isStopped, type ChatMessage } from './chat-state';
import { downloadBlob } from '../../ui/download';
import { MessageMarkdown } from './MessageMarkdown';
import { ContinueButton, RegenerateButton, RegenerateOffer, ReworkButton, UnfinishedAnswer, type OnAnswerAgain } from './AnswerActions';
import { ShareMessageButton } from '../messages';
import { ConvertToAvatarButton } from './ConvertToAvatar';
import { MessageFiles } from './AttachmentChips';
import { MessageCitations } from './MessageCitations';
import { WebSearchStatus } from './WebSources';

export interface MessageActions {
  onSaveEdit: (message: ChatMessage, content: string) => Promise<boolean>;
  onToggleFavorite: (message: ChatMessage) => void;
  /** Continue (cut off or interrupted), Retry (failed or interrupted) or Regenerate (AnswerActions.tsx). */
  onAnswerAgain: OnAnswerAgain;
  /** Rewrite last answer (issue 32 item 2): the next prompt reworks it (POST /messages learnFromPrevResponse). */
  onRework?: () => void;
}

interface MessageItemProps extends MessageActions {
  message: ChatMessage;
  /** An answer is being written somewhere in the conversation: Continue and Retry wait. */
  busy: boolean;
  /** The conversation's last answer: offers Regenerate. */
  last?: boolean;
  /** For a prompt: its newest answer, which editing the prompt offers to regenerate. */
  answer?: ChatMessage;
}

/** An answer the user stopped: its text so far is the answer; Continue (its actions) writes on from there. */
function StoppedMark() {
  const { t } = useTranslation('chat');
  return (
    <Tooltip label={t('message.stoppedHint')} withArrow multiline maw={280}>
      <Badge size="xs" variant="light" color="gray" tabIndex={0} aria-label={t('message.stoppedHint')} style={{ alignSelf: 'flex-start' }} data-testid="stopped-mark">
        {t('message.stopped')}
      </Badge>
    </Tooltip>
  );
}

/**
 * An answer written by the avatar's trained model (OpenAI's fine-tuned `ft:` name, stored as the message's
 * model) says so; the full model name is in its tooltip. Other answers show nothing here.
 */
function TrainedModelBadge({ model }: { model: string | null }) {
  const { t } = useTranslation('chat');
  if (!model?.startsWith('ft:')) return null;
  return (
    <Tooltip label={t('message.trainedModelName', { model })} withArrow>
      <Badge size="xs" variant="light" color="grape" tabIndex={0} aria-label={t('message.trainedModelName', { model })} data-testid="trained-model-badge">
        {t('message.trainedModel')}
      </Badge>
    </Tooltip>
  );
}

export const MessageItem = memo(function MessageItem({ message, busy, last = false, answer, onSaveEdit, onToggleFavorite, onAnswerAgain, onRework }: MessageItemProps) {
  const { t } = useTranslation('chat');
  const [editing, setEditing] = useState(false);
  const [offerRegenerate, setOfferRegenerate] = useState(false);
  const user = message.role === 'user';
  const active = isActive(message);
  const content = message.content ?? '';
  const abilities = message.abilities;
  // Failed or interrupted: said under the text, with its Continue and Retry (AnswerActions.tsx).
  const unfinished = message.status === 'failed' || message.status === 'interrupted';

  return (
    <Box
      component="article"
      className={`${classes.row} ${user ? classes.rowUser : ''}`}
      aria-label={user ? t('message.fromYou') : t('message.fromAssistant')}
      data-testid="message"
      data-role={message.role}
      data-status={message.status}
      data-message-id={message.message_id}
      aria-busy={active}
    >
      <ThemeIcon variant="light" radius="xl" size={32} color={user ? 'gray' : 'violet'} aria-hidden visibleFrom="xs">
        {user ? <IconUser size={18} /> : <IconSparkles size={18} />}
      </ThemeIcon>
      <Stack gap={4} style={{ minWidth: 0, flex: user ? '0 1 auto' : '1 1 auto', alignItems: user ? 'flex-end' : 'stretch' }}>
        {editing ? (
          <MessageEditor
            initial={content}
            onCancel={() => setEditing(false)}
            onSave={async (next) => {
              if (!(await onSaveEdit(message, next))) return;
              setEditing(false);
              // A prompt with an answer: offer to write the answer again from the edited text.
              if (user && answer) setOfferRegenerate(true);
            }}
          />
        ) : (
          <div className={`${classes.bubble} ${user ? classes.bubbleUser : classes.bubbleAssistant} ${message.status === 'failed' ? classes.bubbleFailed : ''}`} data-testid="message-content">
            {user ? (
              <Text size="sm" component="div">
                {content}
              </Text>
            ) : content ? (
              <MessageMarkdown content={content} streaming={active} sources={message.sources} />
            ) : active ? null : (
              <Text size="sm" c="var(--pluma-muted)" fs="italic">
                {t('message.empty')}
              </Text>
            )}
            {active && <TypingIndicator />}
          </div>
        )}
        {user && !editing && message.files && message.files.length > 0 && <MessageFiles files={message.files} />}
        {!user && !editing && message.citations.length > 0 && <MessageCitations citations={message.citations} />}
        {!user && !editing && <WebSearchStatus message={message} />}
        {!user && !editing && <TrainedModelBadge model={message.model} />}
        {!user && !editing && isStopped(message) && <StoppedMark />}
        {unfinished && !editing && <UnfinishedAnswer message={message} busy={busy} onAnswerAgain={onAnswerAgain} />}
        {offerRegenerate && answer && !editing && (
          <RegenerateOffer
            busy={busy || isActive(answer)}
            onDismiss={() => setOfferRegenerate(false)}
            onRegenerate={() => {
              setOfferRegenerate(false);
              onAnswerAgain(answer, 'regenerate');
            }}
          />
        )}
        {!editing && (
          <Group gap={2} className={classes.actions} wrap="wrap" justify={user ? 'flex-end' : 'flex-start'}>
            {abilities.continue && !unfinished && <ContinueButton message={message} busy={busy} onAnswerAgain={onAnswerAgain} />}
            {last && abilities.regenerate && <RegenerateButton message={message} busy={busy} onAnswerAgain={onAnswerAgain} />}
            {last && onRework && message.status === 'done' && !!content && <ReworkButton busy={busy} onRework={onRework} />}
            {!active && (
              <TooltipIconButton tooltip={t('message.copy')} onClick={() => void copyToClipboard(content, t('message.copied'))} disabled={!content}>
                <IconCopy size={16} aria-hidden />
              </TooltipIconButton>
            )}
            {abilities.favorite && (
              <TooltipIconButton
                tooltip={message.favorite ? t('message.unfavorite') : t('message.favorite')}
                label={t('message.favorite')}
                color={message.favorite ? 'yellow' : 'gray'}
                aria-pressed={message.favorite}
                onClick={() => onToggleFavorite(message)}
              >
                {message.favorite ? <IconStarFilled size={16} aria-hidden /> : <IconStar size={16} aria-hidden />}
              </TooltipIconButton>
            )}
            {abilities.edit && (
              <TooltipIconButton tooltip={t('message.edit')} onClick={() => setEditing(true)}>
                <IconPencil size={16} aria-hidden />
              </TooltipIconButton>
            )}
            {!user && !active && <ExportMenu content={content} messageId={message.message_id} sources={message.sources} />}
            {abilities.share && <ShareMessageButton messageId={message.message_id} />}
            {!active && <ConvertToAvatarButton content={content} />}
          </Group>
        )}
      </Stack>
    </Box>
  );
});

function TypingIndicator() {
  const { t } = useTranslation('chat');
  return (
    <span className={classes.typing} role="status" aria-label={t('message.writing')} data-testid="typing-indicator">
      <span />
      <span />
      <span />
    </span>
  );
}

function MessageEditor({ initial, onSave, onCancel }: { initial: string; onSave: (content: string) => Promise<void>; onCancel: () => void }) {
  const { t } = useTranslation('chat');
  const [draft, setDraft] = useState(initial);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      await onSave(draft);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack gap="xs" w="100%" maw={820} data-testid="message-editor">
      <Textarea
        aria-label={t('message.editLabel')}
        value={draft}
        onChange={(event) => setDraft(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
        autosize
        minRows={3}
        maxRows={16}
        maxLength={MESSAGE_CONTENT_MAX_CHARS}
        autoFocus
      />
      <Group gap="xs" justify="flex-end">
        <Button size="xs" variant="default" onClick={onCancel} disabled={saving}>
          {t('actions.cancel')}
        </Button>
        <Button size="xs" onClick={() => void save()} loading={saving} disabled={draft === initial}>
          {t('actions.save')}
        </Button>
      </Group>
    </Stack>
  );
}

function ExportMenu({ content, messageId, sources }: { content: string; messageId: number; sources?: ChatMessage['sources'] }) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      // An answer from the web exports its sources too (issue 32), under this language's heading.
      const web = sources?.length ? { sources: sources.map(({ n, title, url }) => ({ n, title, url })), sources_heading: t('webSearch.sources') } : undefined;
      const blob = await exportMessage(format, content, web);
      downloadBlob(blob, `message-${messageId}.${format === 'pdf' ? 'pdf' : 'docx'}`);
    } catch (error) {
      handleError(error, { showValidation: true });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Menu position="bottom-start" withinPortal>
      <Menu.Target>
        <Tooltip label={t('message.export')} withArrow>
          <ActionIcon variant="subtle" color="gray" aria-label={t('message.export')} loading={busy !== null} disabled={!content.trim()}>
            <IconDownload size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconFileTypePdf size={16} aria-hidden />} onClick={() => void run('pdf')}>
          {t('message.exportPdf')}
        </Menu.Item>
        <Menu.Item leftSection={<IconFileWord size={16} aria-hidden />} onClick={() => void run('word')}>
          {t('message.exportWord')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

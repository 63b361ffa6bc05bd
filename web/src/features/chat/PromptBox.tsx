// The prompt box (spec part 2 §2, §5): the text, the token estimate (debounced 1000 ms, max 7500), Send
// (Enter; Shift+Enter is a new line), Enhance (longer than 12 characters; the enhanced text streams in
// and replaces the prompt), the model control ('Unset' sent as null), the file upload and the avatar control.
// While an answer is written Send turns into Stop (issue 30 item 1); the box stays free to type the next prompt.
import { ActionIcon, Badge, Button, CloseButton, Group, Loader, Select, Text, Textarea } from '@mantine/core';
import { MAX_CONVERSATION_TOKENS } from '@pluma/common/constants';
import type { Conversation } from '@pluma/common/conversations';
import { SocketEvents, type MessageStreamEnhanceEndPayload, type MessageStreamEnhancePayload, type ProviderErrorPayload } from '@pluma/common/events';
import { MESSAGE_CONTENT_MAX_CHARS } from '@pluma/common/constants';
import { IconFile, IconPencilBolt, IconPlayerStopFilled, IconSend, IconWand, IconWorld } from '@tabler/icons-react';
import { memo, useEffect, useReducer, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../api/socket';
import { useAppConfig } from '../../platform/config/app-config';
import { useSession } from '../../platform/session/session-context';
import { showError } from '../../ui/alerts';
import { LazyTooltip } from '../../ui/LazyTooltip';
import { useErrorHandler } from '../../ui/use-error-handler';
import { toModelValue, UNSET_MODEL, useModelOptions, useModels, useUpdateConversation } from '../conversations';
import { enhancePrompt } from './chat-api';
import classes from './Chat.module.css';
import { AvatarControl } from './AvatarControl';
import { AttachmentChips, answeringModel, type PendingAttachment } from './AttachmentChips';
import { ClaudeBetaNote, FileAttach } from './FileAttach';
import { answersWithClaude, canAttachFiles, shortFileName } from './file-rules';
import { canEnhance, canSend, formatCount, showEnhance } from './prompt-rules';
import { initialPromptState, promptReducer, visiblePrompt } from './prompt-state';
import { providerErrorText, type ProviderErrorEvent } from './provider-error';
import { useTokenEstimate } from './use-token-estimate';
import { useActiveOrganizationRecord } from '../organizations';

interface PromptBoxProps {
  conversation: Conversation;
  /** An answer is being written (or a prompt is being sent): Send waits (or turns into Stop, with `onStop`). */
  generating: boolean;
  /** Ends the answer being written, keeping its text: offered in Send's place while `generating`. */
  onStop?: () => void;
  /** The stop was sent and has not answered yet. */
  stopping?: boolean;
  /** Resolves true when the prompt was accepted; `file_ids`: the files attached to it. */
  onSend: (content: string, options?: { file_ids?: number[]; searchOnInternet?: boolean; learnFromPrevResponse?: boolean }) => Promise<boolean>;
  /** Text to put back in an empty box (a first prompt typed on the list that could not be sent). */
  draft?: string | null;
  /** The avatar that answers (AvatarControl.tsx); without `onAvatarChange` no avatar control shows. */
  avatarId?: number | null;
  onAvatarChange?: (avatarId: number | null) => void;
  /** Rewrite last answer (issue 32 item 2): the next prompt is sent with learnFromPrevResponse, then this ends. */
  rework?: boolean;
  onReworkChange?: (rework: boolean) => void;
}

/** Memoized: the history re-renders with every streamed frame, the prompt box only when its props change. */
export const PromptBox = memo(function PromptBox({ conversation, generating, onStop, stopping = false, onSend, draft = null, avatarId = null, onAvatarChange, rework = false, onReworkChange }: PromptBoxProps) {
  const { t } = useTranslation('chat');
  const session = useSession();
  const handleError = useErrorHandler();
  const conversationId = conversation.conversation_id;
  const [state, dispatch] = useReducer(promptReducer, conversationId, initialPromptState);
  const enhancing = state.enhancement !== null;
  const tokens = useTokenEstimate(state.text);
  const overLimit = tokens > MAX_CONVERSATION_TOKENS;
  const context = { text: state.text, generating, enhancing };
  const { data: models = [] } = useModels();
  // The avatar control shows where avatars are on (spec part 1 §2 avatars_enabled).
  const config = useAppConfig();
  const avatarsOn = config.on('avatars_enabled');
  // Web search (issue 32): the globe shows when the admin has chosen a search provider, or the active
  // organization has one of its own; it stays on for the prompts after it until turned off.
  const organization = useActiveOrganizationRecord();
  const webSearchOffered = config.get('web_search_provider') !== '' || organization?.web_search === true;
  const [webSearch, setWebSearch] = useState(false);
  useEffect(() => {
    if (draft) dispatch({ type: 'restored', text: draft });
  }, [draft]);

  // Files attached since the last prompt (issue 27 item 2), sent with the next one; per conversation.
  const [attachments, setAttachments] = useState<{ conversationId: number; files: PendingAttachment[] }>({ conversationId, files: [] });
  const attached = attachments.conversationId === conversationId ? attachments.files : [];
  const submit = async () => {
    if (!canSend(context)) return;
    const content = state.text;
    const fileIds = attached.filter((f) => !f.uploading).map((f) => f.file_id);
    dispatch({ type: 'typed', text: '' });
    const options = {
      ...(fileIds.length ? { file_ids: fileIds } : {}),
      ...(webSearchOffered && webSearch ? { searchOnInternet: true } : {}),
      ...(rework ? { learnFromPrevResponse: true } : {}),
    };
    if (!(await onSend(content, Object.keys(options).length ? options : undefined))) {
      dispatch({ type: 'restored', text: content });
      return;
    }
    if (fileIds.length) setAttachments({ conversationId, files: [] });
    if (rework) onReworkChange?.(false);
  };

  const enhance = () => {
    if (!canEnhance(context)) return;
    dispatch({ type: 'enhanceStarted' });
    enhancePrompt(conversationId, state.text).then(
      (response) => dispatch({ type: 'enhanceAccepted', id: response.enhance_id }),
      (error: unknown) => {
        dispatch({ type: 'enhanceFailed' });
        handleError(error, { showValidation: true });
      },
    );
  };

  useSocketEvent<MessageStreamEnhancePayload>(SocketEvents.messageStreamEnhance, (payload) => dispatch({ type: 'enhanceDelta', payload }));
  useSocketEvent<MessageStreamEnhanceEndPayload>(SocketEvents.messageStreamEnhanceEnd, (payload) => {
    if (payload.conversation_id !== conversationId) return;
    dispatch({ type: 'enhanceEnded', payload });
    // The enhancement's words were charged.
    void session.reloadUser();
  });
  const onProviderError = (event: ProviderErrorEvent, payload: ProviderErrorPayload) => {
    // spec part 2 §8: a provider error stops enhancing (answers' errors are handled by the history).
    if (payload.message_id !== null || payload.conversation_id !== conversationId || !state.enhancement) return;
    if (payload.enhance_id && state.enhancement.id && payload.enhance_id !== state.enhancement.id) return;
    dispatch({ type: 'enhanceFailed', id: payload.enhance_id ?? null });
    showError(providerErrorText(event, payload, t));
  };
  useSocketEvent<ProviderErrorPayload>(SocketEvents.openaiError, (payload) => onProviderError(SocketEvents.openaiError, payload));
  useSocketEvent<ProviderErrorPayload>(SocketEvents.anthropicError, (payload) => onProviderError(SocketEvents.anthropicError, payload));

  const claude = answersWithClaude(conversation.model, models);

  return (
    <div className={classes.prompt} data-testid="prompt-box">
      <Textarea
        className={classes.promptInput}
        aria-label={t('prompt.label')}
        placeholder={t('prompt.placeholder')}
        value={visiblePrompt(state)}
        onChange={(event) => dispatch({ type: 'typed', text: event.currentTarget.value })}
        onKeyDown={(event) => {
          // Enter sends, Shift+Enter is a new line; Enter that confirms an IME composition does neither.
          if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void submit();
          }
        }}
        readOnly={enhancing}
        autosize
        minRows={2}
        maxRows={10}
        maxLength={MESSAGE_CONTENT_MAX_CHARS}
        autoFocus
        data-testid="prompt-input"
      />
      {rework && (
        <Group gap={4} mt={4} data-testid="rework-chip">
          <Badge variant="light" color="violet" leftSection={<IconPencilBolt size={12} aria-hidden />}>
            {t('rework.active')}
          </Badge>
          <CloseButton size="sm" aria-label={t('rework.cancel')} onClick={() => onReworkChange?.(false)} />
        </Group>
      )}
      <AttachmentChips files={attached} model={answeringModel(conversation.model, models)} onRemove={(fileId) => setAttachments({ conversationId, files: attached.filter((f) => f.file_id !== fileId) })} />
      <Group gap="xs" justify="space-between" className={classes.toolbar} wrap="wrap" mt={4}>
        <Group gap="xs" wrap="wrap" style={{ minWidth: 0 }}>
          <ModelControl conversation={conversation} />
          {canAttachFiles(conversation.model, models) && (
            <FileAttach
              conversation={conversation}
              claude={claude}
              disabled={generating}
              onAttached={(file) => setAttachments({ conversationId, files: [...attached.filter((f) => f.file_id !== file.file_id), file] })}
            />
          )}
          {webSearchOffered && (
            <LazyTooltip label={t(webSearch ? 'webSearch.on' : 'webSearch.off')} withArrow>
              <ActionIcon
                size="md"
                radius="xl"
                variant={webSearch ? 'filled' : 'light'}
                color={webSearch ? 'violet' : 'gray'}
                aria-label={t('webSearch.toggle')}
                aria-pressed={webSearch}
                onClick={() => setWebSearch((on) => !on)}
                data-testid="web-search-toggle"
              >
                <IconWorld size={16} aria-hidden />
              </ActionIcon>
            </LazyTooltip>
          )}
          {canAttachFiles(conversation.model, models) && onAvatarChange && avatarsOn && <AvatarControl avatarId={avatarId} onChange={onAvatarChange} disabled={generating} />}
          {conversation.file && attached.length === 0 && (
            <LazyTooltip label={conversation.file.name} withArrow>
              <Badge variant="light" color="gray" leftSection={<IconFile size={12} aria-hidden />} tt="none" data-testid="attached-file">
                {shortFileName(conversation.file.name)}
              </Badge>
            </LazyTooltip>
          )}
        </Group>
        <Group gap="xs" wrap="nowrap" ml="auto">
          <Text size="xs" c={overLimit ? 'red.7' : 'var(--pluma-muted)'} className={classes.tokens} aria-live="polite" data-testid="token-count">
            {t('prompt.tokens', { tokens: formatCount(tokens), max: formatCount(MAX_CONVERSATION_TOKENS) })}
          </Text>
          {(showEnhance(state.text) || enhancing) && (
            <Button
              size="compact-sm"
              variant="light"
              leftSection={<IconWand size={14} aria-hidden />}
              onClick={enhance}
              disabled={!canEnhance(context)}
              loading={enhancing}
              data-testid="enhance-button"
            >
              {t('prompt.enhance')}
            </Button>
          )}
          {generating && onStop ? (
            <LazyTooltip label={t('prompt.stopHint')} withArrow>
              <ActionIcon size="lg" radius="xl" variant="filled" color="dark" aria-label={t('prompt.stop')} onClick={onStop} loading={stopping} data-testid="stop-button">
                <IconPlayerStopFilled size={16} aria-hidden />
              </ActionIcon>
            </LazyTooltip>
          ) : (
            <LazyTooltip label={generating ? t('prompt.waiting') : t('prompt.send')} withArrow>
              <ActionIcon size="lg" radius="xl" aria-label={t('prompt.send')} onClick={() => void submit()} disabled={!canSend(context)} data-testid="send-button">
                {generating ? <Loader size={16} color="gray" aria-hidden /> : <IconSend size={18} aria-hidden />}
              </ActionIcon>
            </LazyTooltip>
          )}
        </Group>
      </Group>
      {claude && canAttachFiles(conversation.model, models) && <ClaudeBetaNote />}
      {overLimit && (
        <Text size="xs" c="red.7" mt={4} role="alert">
          {t('prompt.overLimit', { max: formatCount(MAX_CONVERSATION_TOKENS) })}
        </Text>
      )}
    </div>
  );
});

function ModelControl({ conversation }: { conversation: Conversation }) {
  const { t } = useTranslation('chat');
  const handleError = useErrorHandler();
  const update = useUpdateConversation();
  const options = useModelOptions(conversation.model);
  return (
    <Select
      className={classes.modelSelect}
      size="xs"
      aria-label={t('model.label')}
      data={options}
      value={conversation.model ?? UNSET_MODEL}
      // A long label ends in an ellipsis at 390 px; the whole of it is in the tooltip.
      title={options.find((o) => o.value === (conversation.model ?? UNSET_MODEL))?.label}
      onChange={(value) => {
        const model = toModelValue(value);
        if (model === conversation.model) return;
        update.mutate({ conversation_id: conversation.conversation_id, model }, { onError: (error) => handleError(error, { showValidation: true }) });
      }}
      allowDeselect={false}
      disabled={update.isPending}
      // Its list is built when opened, not kept (hidden) in the page and placed while the screen first renders.
      comboboxProps={{ withinPortal: true, keepMounted: false }}
      data-testid="model-select"
    />
  );
}

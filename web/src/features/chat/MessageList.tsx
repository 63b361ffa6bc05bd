// The message history (spec part 2 §2): newest page first; scrolling to the top loads older messages
// (throttled 120 ms, spec part 2 §9) keeping what the user was reading in place, until the first message,
// then the max-messages badge marks the start. New text keeps the view at the bottom if it was there.
// Opening a conversation paints its newest messages first and adds the older ones of the page in a
// background render (a React transition, which yields to the browser), so the screen shows and answers
// sooner; a view those newest messages do not fill gets them all at once (nothing shown moves).
import { Badge, Button, Center, Divider, Loader, Stack } from '@mantine/core';
import { useThrottledCallback } from '@mantine/hooks';
import { startTransition, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './Chat.module.css';
import type { ChatMessage } from './chat-state';
import { MessageItem, type MessageActions } from './MessageItem';

/** spec part 2 §9: scroll-load throttle. */
export const SCROLL_LOAD_THROTTLE_MS = 120;
/** How close to the top (px) loads the older page, and to the bottom counts as "at the bottom". */
const TOP_THRESHOLD_PX = 120;
const BOTTOM_THRESHOLD_PX = 80;
/** Messages in the first paint of an opened conversation (the last two exchanges). */
export const FIRST_PAINT_MESSAGES = 4;

interface MessageListProps extends MessageActions {
  messages: ChatMessage[];
  hasOlder: boolean;
  loadingOlder: boolean;
  onLoadOlder: () => void;
  busy: boolean;
}

export function MessageList({ messages, hasOlder, loadingOlder, onLoadOlder, busy, onSaveEdit, onToggleFavorite, onAnswerAgain, onRework }: MessageListProps) {
  const { t } = useTranslation('chat');
  const viewport = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  /** Distance from the bottom before older messages were added above, to restore after. */
  const keepFromBottom = useRef<number | null>(null);
  const edges = useRef<{ first: number | null; lastPrompt: number | null }>({ first: null, lastPrompt: null });
  // Whether every loaded message is shown: at first only the newest ones are (FIRST_PAINT_MESSAGES).
  const [complete, setComplete] = useState(() => messages.length <= FIRST_PAINT_MESSAGES);
  const shown = complete ? messages : messages.slice(-FIRST_PAINT_MESSAGES);

  const requestOlder = () => {
    const el = viewport.current;
    if (!el || !complete || !hasOlder || loadingOlder) return;
    keepFromBottom.current = el.scrollHeight - el.scrollTop;
    onLoadOlder();
  };
  const checkTop = useThrottledCallback(() => {
    if ((viewport.current?.scrollTop ?? Infinity) < TOP_THRESHOLD_PX) requestOlder();
  }, SCROLL_LOAD_THROTTLE_MS);

  const onScroll = () => {
    const el = viewport.current;
    if (!el) return;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < BOTTOM_THRESHOLD_PX;
    checkTop();
  };

  // Each prompt's newest answer (Regenerate after an edit) and the conversation's last answer.
  const answers = useMemo(() => {
    const byPrompt = new Map<number, ChatMessage>();
    for (const m of messages) if (m.role === 'assistant' && m.user_message_id !== null) byPrompt.set(m.user_message_id, m);
    return byPrompt;
  }, [messages]);
  const lastAnswer = messages.findLast((m) => m.role === 'assistant')?.message_id ?? null;

  const first = messages[0]?.message_id ?? null;
  const lastPrompt = messages.findLast((m) => m.role === 'user')?.message_id ?? null;
  useLayoutEffect(() => {
    const el = viewport.current;
    if (!el) return;
    const previous = edges.current;
    edges.current = { first, lastPrompt };
    if (keepFromBottom.current !== null && first !== previous.first) {
      // Older messages were added above: keep the same message under the reader's eyes.
      el.scrollTop = el.scrollHeight - keepFromBottom.current;
      keepFromBottom.current = null;
    } else if (atBottom.current || (lastPrompt !== null && previous.lastPrompt !== null && lastPrompt > previous.lastPrompt)) {
      // Following the conversation (or just sent a prompt): stay at the newest text.
      el.scrollTop = el.scrollHeight;
      atBottom.current = true;
    }
  });

  // The rest of the page after the first paint; at once when the newest messages leave part of the view
  // empty (adding messages above them would move them).
  useLayoutEffect(() => {
    if (complete) return;
    const el = viewport.current;
    if (!el || el.scrollHeight <= el.clientHeight) setComplete(true);
    else startTransition(() => setComplete(true));
  }, [complete]);

  // A first page shorter than the view leaves nothing to scroll: load older messages until it fills.
  useLayoutEffect(() => {
    const el = viewport.current;
    if (el && complete && hasOlder && !loadingOlder && el.scrollHeight <= el.clientHeight) requestOlder();
  });

  return (
    <div ref={viewport} className={classes.history} onScroll={onScroll} role="log" aria-label={t('history.label')} aria-live="off" tabIndex={0} data-testid="message-history">
      <Stack gap="lg">
        {!complete ? null : hasOlder ? (
          <Center>
            {loadingOlder ? (
              <Loader size="sm" aria-label={t('history.loadingOlder')} />
            ) : (
              <Button variant="subtle" size="xs" onClick={requestOlder} data-testid="load-older">
                {t('history.loadOlder')}
              </Button>
            )}
          </Center>
        ) : (
          messages.length > 0 && (
            <Divider
              label={
                <Badge variant="light" color="gray" data-testid="max-messages">
                  {/* Shown once the whole history is here, so the count is what is loaded. */}
                  {t('history.start', { count: messages.length })}
                </Badge>
              }
              labelPosition="center"
            />
          )
        )}
        {shown.map((message) => (
          <MessageItem
            key={message.message_id}
            message={message}
            busy={busy}
            last={message.message_id === lastAnswer}
            answer={message.role === 'user' ? answers.get(message.message_id) : undefined}
            onSaveEdit={onSaveEdit}
            onToggleFavorite={onToggleFavorite}
            onAnswerAgain={onAnswerAgain}
            onRework={onRework}
          />
        ))}
      </Stack>
    </div>
  );
}

// An avatar output's thread (spec part 2 §7 GET /messages/thread/{id}[/{x}], POST /outputs/message, the
// `thread_messages` event; "Avatar thread shows last 10 messages and loads 10 more per scroll; scroll-load
// throttle 120 ms"): the newest 10 follow-ups, older ones loaded 10 at a time when scrolled to the top.
import { Box, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { SocketEvents } from '@pluma/common/events';
import { THREAD_SCROLL_THROTTLE_MS, type ThreadMessagesPayload } from '@pluma/common/outputs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useLayoutEffect, useRef, useState, type UIEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSocketEvent } from '../../api/socket';
import { LoadErrorAlert } from '../../ui/LoadErrorAlert';
import { useErrorHandler } from '../../ui/use-error-handler';
import { sendThreadMessage, threadKey, useThread } from './trainings-api';

/** Within this many pixels of the top, the older page is asked for. */
const TOP_EDGE_PX = 40;

export function OutputThread({ outputId, canMessage }: { outputId: number; canMessage: boolean }) {
  const { t } = useTranslation('trainings');
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const thread = useThread(outputId);
  const [text, setText] = useState('');
  const scroller = useRef<HTMLDivElement>(null);
  // Where the content ended before an older page was put above it, so the view stays where the user was.
  const heightBefore = useRef<number | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: threadKey(outputId) });

  useSocketEvent<ThreadMessagesPayload>(SocketEvents.threadMessages, (payload) => {
    if (payload.output_id === outputId) refresh();
  });

  const send = useMutation({
    mutationFn: () => sendThreadMessage(outputId, text.trim()),
    onSuccess: () => {
      setText('');
      refresh();
    },
    onError: (error: unknown) => handleError(error, { premiumAsMessage: true, showValidation: true }),
  });

  const pages = thread.data?.pages ?? [];
  // Pages come newest first; the thread reads oldest first.
  const messages = pages.flatMap((page) => page.messages).reverse();
  const running = messages.at(-1)?.role === 'assistant' && messages.at(-1)?.content === null;

  // Scroll events come by the dozen: an older page is asked for at most once per THREAD_SCROLL_THROTTLE_MS.
  const lastLoad = useRef(-Infinity);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const box = event.currentTarget;
    if (box.scrollTop > TOP_EDGE_PX || !thread.hasNextPage || thread.isFetchingNextPage) return;
    const now = Date.now();
    if (now - lastLoad.current < THREAD_SCROLL_THROTTLE_MS) return;
    lastLoad.current = now;
    heightBefore.current = box.scrollHeight;
    void thread.fetchNextPage();
  };
  // The thread opens at the bottom, and goes there again when a newer message arrives; an older page keeps
  // the view where it was.
  const newestId = messages.at(-1)?.output_message_id;
  useLayoutEffect(() => {
    const box = scroller.current;
    if (!box) return;
    if (heightBefore.current === null) box.scrollTop = box.scrollHeight;
    else box.scrollTop = box.scrollHeight - heightBefore.current;
    heightBefore.current = null;
  }, [pages.length, newestId]);

  return (
    <Stack gap="xs" data-testid={`output-thread-${outputId}`} aria-label={t('thread.label')} role="region">
      {thread.isError && <LoadErrorAlert text={t('loadError')} onRetry={() => void thread.refetch()} retryLabel={t('retry')} />}
      {thread.isLoading && <Text c="dimmed">{t('loading')}</Text>}
      {thread.isSuccess && messages.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('thread.empty')}
        </Text>
      )}
      {messages.length > 0 && (
        <Box ref={scroller} onScroll={onScroll} style={{ maxHeight: 320, overflowY: 'auto' }} data-testid="thread-scroll">
          {thread.isFetchingNextPage && (
            <Text size="xs" c="dimmed">
              {t('thread.loadingOlder')}
            </Text>
          )}
          <Stack gap={6}>
            {messages.map((m) => (
              <Box key={m.output_message_id} data-testid="thread-message">
                <Text size="xs" fw={600} c="dimmed">
                  {m.role === 'user' ? t('thread.you') : t('thread.avatar')}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {m.content === null ? t('thread.writing') : m.content === '' ? t('thread.failed') : m.content}
                </Text>
              </Box>
            ))}
          </Stack>
        </Box>
      )}
      {canMessage && (
        <Group align="flex-end" gap="xs">
          <Textarea
            style={{ flex: 1 }}
            aria-label={t('thread.placeholder')}
            placeholder={t('thread.placeholder')}
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            autosize
            minRows={1}
            data-testid="thread-input"
          />
          <Button size="sm" onClick={() => send.mutate()} disabled={!text.trim() || running} loading={send.isPending} data-testid="thread-send">
            {t('thread.send')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

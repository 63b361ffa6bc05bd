// Drives the conversation screen's message state (chat-state.ts) from HTTP and the real-time channel
// (spec part 2 §4 "Chat", §7 "Real-time channel"): first page, older pages, sending, continuing,
// streaming frames, the end of a stream (which refreshes the current user's words), provider errors,
// Stop (issue 30 item 1: the answer ends with its text so far), and recovery when frames could not be seen
// (a reload mid-stream, a reconnect).
import { SocketEvents, STREAM_POLL_MS, type MessagePayload, type MessageStreamEndPayload, type MessageStreamPayload, type ProviderErrorPayload, type WebSearchPayload } from '@pluma/common/events';
import { useQueryClient } from '@tanstack/react-query';
import { startTransition, useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error';
import { useSocketEvent, useSocketStatus } from '../../api/socket';
import { useSession } from '../../platform/session/session-context';
import { showError } from '../../ui/alerts';
import { useErrorHandler } from '../../ui/use-error-handler';
import { CONVERSATIONS_KEY } from '../conversations';
import { MESSAGES_PAGE_SIZE } from '@pluma/common/constants';
import { answerAgain, fetchLatestPage, fetchMessagePage, sendMessage, stopAnswer, updateMessage } from './chat-api';
import { activeAnswers, chatReducer, hasSnapshotInProgress, initialChatState, isActive, isGenerating, type ChatMessage } from './chat-state';
import { providerErrorText, type ProviderErrorEvent } from './provider-error';

export type AnswerAgainMode = 'continue' | 'regenerate';

/** `pageSize`: messages per page (an avatar's chat: AVATAR_PAGE_SIZE). */
export function useChat(conversationId: number, pageSize: number = MESSAGES_PAGE_SIZE) {
  const { t } = useTranslation('chat');
  const session = useSession();
  const queryClient = useQueryClient();
  const handleError = useErrorHandler();
  const [state, dispatch] = useReducer(chatReducer, conversationId, initialChatState);
  const [sending, setSending] = useState(false);
  const [stopping, setStopping] = useState(false);
  /** Stop was asked for while the prompt was still being sent (no answer id yet): the answer stops once it has one. */
  const stopWanted = useRef(false);
  const [loadError, setLoadError] = useState<unknown>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const lastFrameAt = useRef(0);
  const polling = useRef(false);
  /**
   * The server's words when a message is refused with 409 ai_key_required (the avatar answers with the
   * user's trained model and their own key is gone): shown beside the prompt with a link to Settings, where
   * the key is added (KeyRequiredAlert), instead of a passing alert.
   */
  const [keyRequired, setKeyRequired] = useState<string | null>(null);
  const dismissKeyRequired = useCallback(() => setKeyRequired(null), []);
  const onSendError = useCallback(
    (error: unknown) => {
      if (isApiError(error) && error.errorId === 'ai_key_required') setKeyRequired(error.message);
      // 412 (no access or no words left) goes to /sorry; a too-long prompt shows the server's text.
      else handleError(error, { showValidation: true });
    },
    [handleError],
  );

  const loadLatest = useCallback(
    (signal?: AbortSignal) =>
      fetchLatestPage(queryClient, conversationId, signal, pageSize).then((page) => {
        // A background render (it yields to the browser): a page of answers is a lot to lay out at once.
        startTransition(() => dispatch({ type: 'latestPage', page }));
        setLoadError(null);
      }),
    [queryClient, conversationId, pageSize],
  );

  useEffect(() => {
    const controller = new AbortController();
    loadLatest(controller.signal).catch((error: unknown) => {
      if (!controller.signal.aborted) setLoadError(error);
    });
    return () => controller.abort();
  }, [loadLatest]);

  const retryLoad = useCallback(() => {
    setLoadError(null);
    loadLatest().catch((error: unknown) => setLoadError(error));
  }, [loadLatest]);

  const olderCursor = state.olderCursor;
  const loadOlder = useCallback(() => {
    if (loadingOlder || olderCursor === null) return;
    setLoadingOlder(true);
    fetchMessagePage(conversationId, olderCursor, undefined, pageSize)
      .then((page) => dispatch({ type: 'olderPage', page }))
      .catch((error: unknown) => handleError(error))
      .finally(() => setLoadingOlder(false));
  }, [conversationId, olderCursor, loadingOlder, handleError, pageSize]);

  const afterAnswer = useCallback(() => {
    // spec part 2 §4: after a stream ends the current user (words balance) is refreshed.
    void session.reloadUser();
    void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
  }, [session, queryClient]);

  useSocketEvent<MessageStreamPayload>(SocketEvents.messageStream, (payload) => {
    if (payload.conversation_id === conversationId) lastFrameAt.current = Date.now();
    dispatch({ type: 'delta', payload });
  });
  useSocketEvent<MessageStreamEndPayload>(SocketEvents.messageStreamEnd, (payload) => {
    dispatch({ type: 'streamEnd', payload });
    if (payload.conversation_id === conversationId) afterAnswer();
  });
  useSocketEvent<MessagePayload>(SocketEvents.message, (payload) => {
    if (!payload.message) return;
    dispatch({ type: 'finished', message: payload.message });
    if (payload.conversation_id === conversationId) afterAnswer();
  });
  useSocketEvent<WebSearchPayload>(SocketEvents.webSearch, (payload) => {
    // Steps are frames too: the poll for a stalled stream waits while the search runs.
    if (payload.conversation_id === conversationId) lastFrameAt.current = Date.now();
    dispatch({ type: 'webSearch', payload });
  });
  const onProviderError = (event: ProviderErrorEvent, payload: ProviderErrorPayload) => {
    // Enhancement failures (no message) belong to the prompt box.
    if (payload.message_id === null || payload.conversation_id !== conversationId) return;
    const text = providerErrorText(event, payload, t);
    dispatch({ type: 'providerError', payload, text });
    showError(text);
    afterAnswer();
  };
  useSocketEvent<ProviderErrorPayload>(SocketEvents.openaiError, (payload) => onProviderError(SocketEvents.openaiError, payload));
  useSocketEvent<ProviderErrorPayload>(SocketEvents.anthropicError, (payload) => onProviderError(SocketEvents.anthropicError, payload));

  // Frames sent while the socket was down are gone: after a reconnect, answers being written are read
  // from the server (their saved text) until they end.
  const socketStatus = useSocketStatus();
  const previousStatus = useRef(socketStatus);
  const loaded = state.loaded;
  useEffect(() => {
    const before = previousStatus.current;
    previousStatus.current = socketStatus;
    if (socketStatus !== 'connected' || before === 'connected' || !loaded) return;
    fetchMessagePage(conversationId).then(
      (page) => {
        dispatch({ type: 'framesLost' });
        dispatch({ type: 'latestPage', page });
      },
      () => undefined,
    );
  }, [socketStatus, loaded, conversationId]);

  // A reload mid-stream shows the saved text; it is read again every STREAM_POLL_MS until the answer
  // ends (message_stream_end then gives the final text). A live answer is read only if its frames stop.
  const generating = isGenerating(state);
  const snapshotActive = hasSnapshotInProgress(state);
  useEffect(() => {
    if (!generating) return;
    const timer = setInterval(() => {
      if (polling.current) return;
      if (!snapshotActive && Date.now() - lastFrameAt.current < STREAM_POLL_MS) return;
      polling.current = true;
      fetchMessagePage(conversationId)
        .then((page) => dispatch({ type: 'latestPage', page }))
        .catch(() => undefined)
        .finally(() => {
          polling.current = false;
        });
    }, STREAM_POLL_MS);
    return () => clearInterval(timer);
  }, [generating, snapshotActive, conversationId]);

  /**
   * Stops answers being written (issue 30 item 1). The server ends each with its text so far and answers
   * with it final: shown at once (Send is offered again), and every other tab gets the end over the socket.
   */
  const stopAnswers = useCallback(
    async (messageIds: number[]) => {
      if (messageIds.length === 0) return;
      setStopping(true);
      try {
        const stopped = await Promise.all(messageIds.map((id) => stopAnswer(id)));
        // Still active: it runs on another server, whose end event brings the final text.
        for (const message of stopped) if (!isActive(message)) dispatch({ type: 'finished', message });
        afterAnswer();
      } catch (error) {
        handleError(error);
      } finally {
        setStopping(false);
      }
    },
    [afterAnswer, handleError],
  );

  const activeIds = activeAnswers(state)
    .map((m) => m.message_id)
    .join(',');
  const stop = useCallback(() => {
    const ids = activeIds ? activeIds.split(',').map(Number) : [];
    // Sent but not answered yet: its answer is stopped as soon as its id is known (a second stop is harmless).
    stopWanted.current = sending;
    void stopAnswers(ids);
  }, [activeIds, sending, stopAnswers]);
  /** After POST /messages answered: the answer is stopped at once if Stop was pressed meanwhile. */
  const stopIfWanted = useCallback(
    (messageId: number) => {
      if (!stopWanted.current) return;
      stopWanted.current = false;
      void stopAnswers([messageId]);
    },
    [stopAnswers],
  );

  const send = useCallback(
    async (
      content: string,
      options: { avatar_id?: number | null; file_ids?: number[]; template_id?: number; values?: Record<string, string>; user_workflow_id?: number; searchOnInternet?: boolean; learnFromPrevResponse?: boolean } = {},
    ): Promise<boolean> => {
      setSending(true);
      stopWanted.current = false;
      lastFrameAt.current = Date.now();
      try {
        const response = await sendMessage({ content, conversation_id: conversationId, ...options });
        dispatch({ type: 'sent', response });
        // The search starts with the request: its first step may have come over the socket before this answer.
        const answer = response.assistant_message;
        if (options.searchOnInternet) dispatch({ type: 'webSearch', payload: { message_id: answer.message_id, conversation_id: answer.conversation_id, step: 'searching' }, early: true });
        stopIfWanted(response.assistant_message.message_id);
        setKeyRequired(null);
        void queryClient.invalidateQueries({ queryKey: CONVERSATIONS_KEY });
        return true;
      } catch (error) {
        onSendError(error);
        return false;
      } finally {
        setSending(false);
      }
    },
    [conversationId, queryClient, onSendError, stopIfWanted],
  );

  /**
   * 'continue': an answer cut off or interrupted is written on from where it stopped. 'regenerate' (Retry,
   * Regenerate): a failed or interrupted answer is written again in its own row (one answer, not two); a
   * finished one gets a new answer to its prompt as it is now.
   */
  const answerAgainFor = useCallback(
    async (message: ChatMessage, mode: AnswerAgainMode = 'continue') => {
      // As the answer's abilities say: continued from where it stopped, or written again in its own row (Retry).
      const continuing = mode === 'continue' && message.abilities.continue;
      const inPlace = continuing || message.abilities.retry;
      if (inPlace) dispatch({ type: 'continueStarted', messageId: message.message_id, clear: !continuing });
      setSending(true);
      stopWanted.current = false;
      lastFrameAt.current = Date.now();
      try {
        const response = await answerAgain(conversationId, message.message_id, { regenerate: mode === 'regenerate' });
        dispatch({ type: 'sent', response });
        stopIfWanted(response.assistant_message.message_id);
        setKeyRequired(null);
      } catch (error) {
        if (inPlace) dispatch({ type: 'replaced', message });
        onSendError(error);
      } finally {
        setSending(false);
      }
    },
    [conversationId, onSendError, stopIfWanted],
  );

  const saveEdit = useCallback(
    async (message: ChatMessage, content: string): Promise<boolean> => {
      try {
        dispatch({ type: 'replaced', message: await updateMessage({ message_id: message.message_id, content }) });
        return true;
      } catch (error) {
        handleError(error, { showValidation: true });
        return false;
      }
    },
    [handleError],
  );

  const toggleFavorite = useCallback(
    async (message: ChatMessage) => {
      const favorite = !message.favorite;
      // Shown at once; put back if the server refuses.
      dispatch({ type: 'replaced', message: { ...message, favorite } });
      try {
        dispatch({ type: 'replaced', message: await updateMessage({ message_id: message.message_id, favorite }) });
      } catch (error) {
        dispatch({ type: 'replaced', message: { ...message, favorite: !favorite } });
        handleError(error);
      }
    },
    [handleError],
  );

  return {
    state,
    generating: generating || sending,
    /** Ends the answer being written, keeping its text (Stop, Esc). */
    stop,
    /** A stop was sent and has not answered yet. */
    stopping,
    loadError,
    retryLoad,
    loadingOlder,
    loadOlder,
    send,
    answerAgain: answerAgainFor,
    saveEdit,
    toggleFavorite,
    keyRequired,
    dismissKeyRequired,
  };
}

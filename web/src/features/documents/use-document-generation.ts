// One generation at a time written into a document (contract A of issue 15; spec part 2 §2 "Documents and
// editor"): POST /documents/avatar-output answers 202 at once, the markdown arrives as `document_output`
// frames and streams into the editor through MarkdownStream (finished blocks committed once, only the
// trailing block re-parsed, at most 10 renders a second). On the last frame: the final parse, the document
// saved, then the generation marked applied. A generation found unapplied after a reload is resumed (still
// streaming) or offered again (written while away): resume / insert / dismiss. Used by the editor page and
// the campaign document page. Stop (the tools' button while it runs, or Esc) ends it on the server: the text
// written so far stays, the end frame finishes it here and in every other tab, and a 'Stopped' note says so.
import { SocketEvents } from '@pluma/common/events';
import type { DocumentGeneration, DocumentOutputPayload } from '@pluma/common/documents-generate';
import { translate } from '@pluma/common/messages';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/api-error';
import { useSocketEvent } from '../../api/socket';
import { currentLanguage } from '../../i18n';
import { showError, showSuccess } from '../../ui/alerts';
import { useErrorHandler } from '../../ui/use-error-handler';
import { forgetBlocks, getGeneration, markApplied, rememberBlocks, rememberedBlocks, startGeneration, stopGeneration, type GenerateInput } from './generation-api';
import { MarkdownStream, type StreamEditor } from './markdown-stream';

/** At most 10 editor updates a second while the answer streams in. */
export const RENDER_INTERVAL_MS = 100;
/** With no frame for this long, the generation is read from the server (a lost socket frame must not hang the editor). */
export const STALL_CHECK_MS = 5000;

/** waiting: asked, no text yet; streaming: text arriving. Both show '{app} is looking for an answer...'. */
export type GenerationPhase = 'idle' | 'waiting' | 'streaming';

export interface DocumentGenerationOptions {
  /** Saves the document now (creating a new one) and answers its id; null when it could not be saved. */
  save: () => Promise<number | null>;
  /** Generating from a campaign document page. */
  campaignId?: number;
}

interface Active {
  id: number;
  stream: MarkdownStream;
  timer: ReturnType<typeof setTimeout> | null;
  lastFrameAt: number;
}

export function useDocumentGeneration(editor: () => StreamEditor | null, options: DocumentGenerationOptions) {
  const { t } = useTranslation('documents');
  const handleError = useErrorHandler();
  const [phase, setPhase] = useState<GenerationPhase>('idle');
  const busy = useRef(false);
  const active = useRef<Active | null>(null);
  // Frames can arrive before the POST's answer names the generation.
  const early = useRef<DocumentOutputPayload[] | null>(null);
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });

  const failureText = useCallback(
    (code: string | null) => (code === 'words_exhausted' ? translate(currentLanguage(), 'words_exhausted') : t('generation.failed')),
    [t],
  );

  /** Inserted and saved: the server may forget it (the reload banner will not offer it again). */
  const apply = useCallback(
    async (generationId: number) => {
      const saved = await latest.current.save();
      if (saved === null) return;
      try {
        await markApplied(generationId);
        forgetBlocks(generationId);
      } catch (error) {
        handleError(error);
      }
    },
    [handleError],
  );

  const finish = useCallback(
    async (status: DocumentGeneration['status'], content: string, errorCode: string | null) => {
      const current = active.current;
      if (!current) return;
      active.current = null;
      if (current.timer) clearTimeout(current.timer);
      current.stream.setText(content);
      current.stream.render(true);
      rememberBlocks(current.id, current.stream.blockIds);
      setPhase('idle');
      busy.current = false;
      // spec: a provider failure keeps the partial text; the notice says the answer stopped.
      if (status === 'failed') showError(failureText(errorCode));
      if (status === 'stopped') showSuccess(t('generation.stopped'));
      await apply(current.id);
    },
    [apply, failureText, t],
  );

  const render = useCallback((current: Active) => {
    if (current.timer) return;
    current.timer = setTimeout(() => {
      current.timer = null;
      if (active.current !== current) return;
      current.stream.render();
      rememberBlocks(current.id, current.stream.blockIds);
    }, RENDER_INTERVAL_MS);
  }, []);

  const onFrame = useCallback(
    (frame: DocumentOutputPayload) => {
      const current = active.current;
      if (!current) {
        early.current?.push(frame);
        return;
      }
      if (frame.generation_id !== current.id) return;
      current.lastFrameAt = Date.now();
      if (frame.delta) {
        current.stream.append(frame.delta);
        setPhase('streaming');
        render(current);
      }
      if (frame.done) void finish(frame.status, frame.content ?? current.stream.text, frame.error_code);
    },
    [finish, render],
  );
  useSocketEvent<DocumentOutputPayload>(SocketEvents.documentOutput, onFrame);

  /** Starts following a generation: its text so far into the editor, then its frames. */
  const follow = useCallback(
    (generation: DocumentGeneration) => {
      const target = editor();
      if (!target) {
        early.current = null;
        busy.current = false;
        setPhase('idle');
        return;
      }
      const stream = new MarkdownStream(target, rememberedBlocks(generation.generation_id));
      const current: Active = { id: generation.generation_id, stream, timer: null, lastFrameAt: Date.now() };
      active.current = current;
      busy.current = true;
      if (generation.content) stream.setText(generation.content);
      if (generation.status !== 'streaming') {
        early.current = null;
        void finish(generation.status, generation.content, generation.error_code);
        return;
      }
      setPhase(generation.content ? 'streaming' : 'waiting');
      if (generation.content) render(current);
      const frames = early.current ?? [];
      early.current = null;
      frames.forEach(onFrame);
    },
    [editor, finish, onFrame, render],
  );

  // A frame lost with the connection must not leave the editor waiting: ask the server.
  useEffect(() => {
    if (phase === 'idle') return;
    const timer = setInterval(() => {
      const current = active.current;
      if (!current || Date.now() - current.lastFrameAt < STALL_CHECK_MS) return;
      current.lastFrameAt = Date.now();
      getGeneration(current.id)
        .then((generation) => {
          if (active.current === current && generation.status !== 'streaming') void finish(generation.status, generation.content, generation.error_code);
        })
        .catch(() => undefined);
    }, STALL_CHECK_MS);
    return () => clearInterval(timer);
  }, [phase, finish]);

  useEffect(
    () => () => {
      if (active.current?.timer) clearTimeout(active.current.timer);
      active.current = null;
    },
    [],
  );

  /** Asks for a generation into this document; false when one is already running or it could not start. */
  const generate = useCallback(
    async (input: GenerateInput, file?: File | null): Promise<boolean> => {
      // Nothing to write into yet (the editor's chunk is still loading): nothing is asked.
      if (busy.current || !editor()) return false;
      busy.current = true;
      setPhase('waiting');
      const stop = () => {
        early.current = null;
        busy.current = false;
        setPhase('idle');
        return false;
      };
      try {
        // The generation belongs to a saved document (a new one is created first): a reload finds it there.
        const documentId = await latest.current.save();
        if (documentId === null) return stop();
        early.current = [];
        const { generation } = await startGeneration({ ...input, document_id: documentId, campaign_id: latest.current.campaignId }, file);
        follow(generation);
        return true;
      } catch (error) {
        if (error instanceof ApiError && error.status === 412 && error.errorId === 'words_exhausted') showError(failureText('words_exhausted'));
        else handleError(error, { premiumAsMessage: true, showValidation: true });
        return stop();
      }
    },
    [editor, follow, failureText, handleError],
  );

  /**
   * The user's Stop: the server ends the generation ('stopped', its text kept). Its answer (or the end frame,
   * whichever comes first; another node's generation ends by the frame) finishes it here.
   */
  const [stopping, setStopping] = useState(false);
  const stop = useCallback(async () => {
    const current = active.current;
    if (!current || stopping) return;
    setStopping(true);
    try {
      const generation = await stopGeneration(current.id);
      if (active.current === current && generation.status !== 'streaming') await finish(generation.status, generation.content, generation.error_code);
    } catch (error) {
      handleError(error);
    } finally {
      setStopping(false);
    }
  }, [finish, handleError, stopping]);

  // Esc stops it too, as in the chat.
  useEffect(() => {
    if (phase === 'idle') return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) void stop();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [phase, stop]);

  /** A generation still streaming when the document was opened (a reload mid-answer). */
  const resume = useCallback(
    (generation: DocumentGeneration) => {
      if (busy.current) return;
      early.current = [];
      follow(generation);
    },
    [follow],
  );

  /** A generation written while away: its markdown appended (replacing what a reload left of it), saved, applied. */
  const insert = useCallback(
    async (generation: DocumentGeneration) => {
      const target = editor();
      if (!target || busy.current) return;
      const stream = new MarkdownStream(target, rememberedBlocks(generation.generation_id));
      stream.setText(generation.content);
      stream.render(true);
      rememberBlocks(generation.generation_id, stream.blockIds);
      await apply(generation.generation_id);
    },
    [editor, apply],
  );

  /** Not wanted: the server stops offering it. */
  const dismiss = useCallback(
    async (generation: DocumentGeneration) => {
      try {
        await markApplied(generation.generation_id);
        forgetBlocks(generation.generation_id);
      } catch (error) {
        handleError(error);
      }
    },
    [handleError],
  );

  return { phase, busy: phase !== 'idle', generate, resume, insert, dismiss, stop, stopping };
}

export type DocumentGenerationControls = ReturnType<typeof useDocumentGeneration>;

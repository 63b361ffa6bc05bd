// Autosave for the document editor (issue 15 item 1: "Autosave with a visible saved state; no lost edits on
// reload"). Typing only marks the document changed — the blocks and their HTML are read from the editor when
// a save runs (1.5 s after the last change), so a 50,000-character document stays fluid. Saves run one at a
// time (the first one creates the document: spec part 2 §4 "Save rule"), and a change made while one runs
// schedules the next. Whenever the page is hidden or left with unsaved changes, the current text is written
// to localStorage at once and a save is started; the editor restores that draft on the next load, so a
// reload or a closed tab loses nothing even if the last save never reached the server.
import type { DocumentBlock } from '@pluma/common/documents';
import { DOCUMENT_CONTENT_LIMIT } from '@pluma/common/rules/document-text';
import { useEffect, useLayoutEffect, useState, useSyncExternalStore } from 'react';
import { DRAFT_PREFIX } from './local-data';

export const AUTOSAVE_DELAY_MS = 1500;

export interface DocumentSnapshot {
  name: string;
  blocks: DocumentBlock[];
  content: string;
}

/** new: a new document not saved yet (neutral, not 'Saved'); saved: nothing to save; unsaved: a save is due; saving: in flight; error: the last save failed (retried on the next change or Save); tooLarge: over the 65000-character limit (spec part 2 §5). */
export type SaveState = 'new' | 'saved' | 'unsaved' | 'saving' | 'error' | 'tooLarge';

/** `scope`: the user and context (Personal or the organization), so drafts never cross accounts on one browser. */
const draftKey = (scope: string, documentId: number | null) => `${DRAFT_PREFIX}${scope}.${documentId ?? 'new'}`;

export interface Draft extends DocumentSnapshot {
  savedAt: string;
  /**
   * The server's updatedAt of the version these edits started from (null: a document not created yet). A
   * draft is used only while the server still has that version: if it changed since (the save sent when the
   * page was hidden did land, or another device saved), the server's text wins.
   */
  baseUpdatedAt: string | null;
}

/** The draft to start from, if it is still ahead of what the server has (see Draft.baseUpdatedAt). */
export function usableDraft(draft: Draft | null, serverUpdatedAt: string | null): Draft | null {
  if (!draft) return null;
  return serverUpdatedAt === null || draft.baseUpdatedAt === serverUpdatedAt ? draft : null;
}

export function readDraft(scope: string, documentId: number | null): Draft | null {
  try {
    const raw = window.localStorage.getItem(draftKey(scope, documentId));
    if (!raw) return null;
    const draft = JSON.parse(raw) as Draft;
    return Array.isArray(draft.blocks) && typeof draft.content === 'string' && typeof draft.name === 'string' ? draft : null;
  } catch {
    return null;
  }
}

function writeDraft(scope: string, documentId: number | null, snapshot: DocumentSnapshot, baseUpdatedAt: string | null) {
  try {
    const draft: Draft = { ...snapshot, savedAt: new Date().toISOString(), baseUpdatedAt };
    window.localStorage.setItem(draftKey(scope, documentId), JSON.stringify(draft));
  } catch {
    // Storage full or disabled: the server save is still attempted.
  }
}

export function clearDraft(scope: string, documentId: number | null) {
  try {
    window.localStorage.removeItem(draftKey(scope, documentId));
  } catch {
    // Nothing to clear.
  }
}

/** A deleted document's drafts go with it (every user and context on this browser). */
export function clearDocumentDrafts(documentId: number) {
  try {
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith(DRAFT_PREFIX) && key.endsWith(`.${documentId}`)) window.localStorage.removeItem(key);
    }
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

export interface AutosaveOptions {
  /** Where drafts are kept (see draftKey). */
  draftScope: string;
  /** null until the first save creates the document. */
  documentId: number | null;
  /** The editor's current name, blocks and HTML; null when it cannot be saved yet (no editor, empty name). */
  read: () => DocumentSnapshot | null;
  /** The server's updatedAt of the loaded version (null for a new document). */
  baseUpdatedAt: string | null;
  /** Sends the snapshot (POST when documentId is null, else PUT) and answers the saved document's id and updatedAt. */
  save: (snapshot: DocumentSnapshot, documentId: number | null) => Promise<{ documentId: number; updatedAt: string }>;
  /** The first save created the document. */
  onCreated?: (documentId: number) => void;
  /** The document is over the limit (each time the user asks for a save, once per episode otherwise). */
  onTooLarge?: () => void;
  onError?: (error: unknown) => void;
  /** Start as changed (a restored draft that the server has not seen). */
  initiallyDirty?: boolean;
  delayMs?: number;
}

/** The autosave machine, framework-free (the hook below binds it to a component and the page's events). */
export class Autosave {
  state: SaveState;
  private options: AutosaveOptions;
  private documentId: number | null;
  private baseUpdatedAt: string | null;
  private version: number;
  private savedVersion = 0;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private warnedTooLarge = false;
  private readonly listeners = new Set<() => void>();

  constructor(options: AutosaveOptions) {
    this.options = options;
    this.documentId = options.documentId;
    this.baseUpdatedAt = options.baseUpdatedAt;
    this.version = options.initiallyDirty ? 1 : 0;
    this.state = options.initiallyDirty ? 'unsaved' : options.documentId === null ? 'new' : 'saved';
  }

  /** Mounted: a restored draft is saved after the usual delay (not in the constructor: React may build two). */
  start() {
    if (this.dirty && !this.timer && !this.running) this.schedule();
  }

  /** The latest callbacks (they may close over new props). */
  update(options: AutosaveOptions) {
    this.options = options;
    if (options.documentId !== null) this.documentId = options.documentId;
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = () => this.state;

  get dirty() {
    return this.version !== this.savedVersion;
  }

  /** The editor (or the name) changed. */
  change = () => {
    this.version += 1;
    if (this.state !== 'saving') this.setState('unsaved');
    this.schedule();
  };

  /** Save now (the Save button): the limit's alert shows every time it is asked. */
  saveNow = async () => {
    this.clearTimer();
    await this.run(true);
  };

  /** The page is hidden or left: keep the draft locally at once and try to save it. */
  flush = () => {
    if (!this.dirty) return;
    const snapshot = this.options.read();
    if (snapshot) writeDraft(this.options.draftScope, this.documentId, snapshot, this.baseUpdatedAt);
    this.clearTimer();
    void this.run(false);
  };

  dispose() {
    this.clearTimer();
    this.listeners.clear();
  }

  private setState(state: SaveState) {
    if (this.state === state) return;
    this.state = state;
    for (const listener of this.listeners) listener();
  }

  private clearTimer() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule() {
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.run(false);
    }, this.options.delayMs ?? AUTOSAVE_DELAY_MS);
  }

  private async run(asked: boolean): Promise<void> {
    // One save at a time: a later one waits, then saves whatever is still unsaved.
    while (this.running) await this.running;
    if (!this.dirty && !asked) return;
    const snapshot = this.options.read();
    if (!snapshot) return;
    const at = this.version;
    if (snapshot.content.length >= DOCUMENT_CONTENT_LIMIT) {
      writeDraft(this.options.draftScope, this.documentId, snapshot, this.baseUpdatedAt);
      this.setState('tooLarge');
      if (asked || !this.warnedTooLarge) this.options.onTooLarge?.();
      this.warnedTooLarge = true;
      return;
    }
    this.warnedTooLarge = false;
    this.setState('saving');
    const job = this.send(snapshot, at);
    this.running = job;
    await job;
    this.running = null;
    // Changes made during the save are saved next.
    if (this.dirty && !this.timer && this.state !== 'error') this.schedule();
  }

  private async send(snapshot: DocumentSnapshot, at: number) {
    const before = this.documentId;
    try {
      const { documentId: savedId, updatedAt } = await this.options.save(snapshot, before);
      this.baseUpdatedAt = updatedAt;
      if (before === null) {
        clearDraft(this.options.draftScope, null);
        this.documentId = savedId;
        this.options.onCreated?.(savedId);
      }
      this.savedVersion = Math.max(this.savedVersion, at);
      if (this.dirty) this.setState('unsaved');
      else {
        clearDraft(this.options.draftScope, savedId);
        this.setState('saved');
      }
    } catch (error) {
      writeDraft(this.options.draftScope, this.documentId, snapshot, this.baseUpdatedAt);
      this.setState('error');
      this.options.onError?.(error);
    }
  }
}

/** One Autosave per mounted editor, flushed when the page is hidden or left and when the editor unmounts. */
export function useAutosave(options: AutosaveOptions) {
  const [autosave] = useState(() => new Autosave(options));
  useEffect(() => autosave.update(options));
  const state = useSyncExternalStore(autosave.subscribe, autosave.getState, autosave.getState);
  useEffect(() => {
    autosave.start();
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') autosave.flush();
    };
    window.addEventListener('pagehide', autosave.flush);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', autosave.flush);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [autosave]);
  // Leaving the editor inside the app: the same as leaving the page. A layout effect, so it reads the editor
  // before React detaches it (passive effects run after).
  useLayoutEffect(() => () => autosave.flush(), [autosave]);
  return { state, autosave };
}

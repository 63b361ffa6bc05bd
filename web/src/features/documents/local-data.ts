// What the documents feature keeps in this browser's localStorage, and its removal on sign-out (the next
// person on this browser must not find another account's unsaved text). Import-free: the session provider
// calls it from the main chunk.

/** Unsaved document text (use-autosave.ts): `pluma.documentDraft.{user}.{context}.{id|new}`. */
export const DRAFT_PREFIX = 'pluma.documentDraft.';
/** The blocks a generation inserted (generation-api.ts): `pluma.documentGeneration.{generationId}`. */
export const GENERATION_PREFIX = 'pluma.documentGeneration.';

export function clearLocalDocumentData() {
  try {
    for (const key of Object.keys(window.localStorage)) {
      if (key.startsWith(DRAFT_PREFIX) || key.startsWith(GENERATION_PREFIX)) window.localStorage.removeItem(key);
    }
  } catch {
    // Storage unavailable: nothing was kept there either.
  }
}

// Code highlighting for answers, loaded only when an answer has a fenced code block: rehype-highlight
// (highlight.js grammars) and its colours come in their own chunk, off the chat screen's first load.
import type { Options } from 'react-markdown';
import { useEffect, useState } from 'react';

export type RehypePlugins = NonNullable<Options['rehypePlugins']>;

let plugins: RehypePlugins | null = null;
let loading: Promise<RehypePlugins> | null = null;

function loadHighlighter(): Promise<RehypePlugins> {
  loading ??= Promise.all([import('rehype-highlight'), import('./code-highlight.css')]).then(
    ([module]) => {
      // Only blocks that name their language are coloured: guessing costs time on every frame.
      plugins = [[module.default, { detect: false }]];
      return plugins;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** Tests only (test/setup.ts): the highlighter not loaded yet, as on a new page. */
export function resetCodeHighlighterForTests() {
  plugins = null;
  loading = null;
}

/** The rehype plugins to pass to react-markdown once loaded; undefined until then (plain code blocks). */
export function useCodeHighlighter(needed: boolean): RehypePlugins | undefined {
  const [loaded, setLoaded] = useState<RehypePlugins | null>(plugins);
  useEffect(() => {
    if (!needed || loaded) return;
    let active = true;
    loadHighlighter().then(
      (next) => {
        if (active) setLoaded(next);
      },
      // Without the chunk (offline after a deploy) code stays readable, just uncoloured.
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [needed, loaded]);
  return loaded ?? undefined;
}

// The block editor (BlockNote, Mantine flavour; DESIGN.md §2), loaded as its own chunk by the editor page.
// Only BlockNote's own styles are imported (react/style.css and mantine's blocknoteStyles.css, all scoped to
// .bn-* classes) — not mantine/style.css, whose copy of Mantine's component styles the app already has — so
// nothing outside the editor is restyled. Its menus speak the interface language.
import '@blocknote/react/style.css';
import '@blocknote/mantine/blocknoteStyles.css';
import type { PartialBlock } from '@blocknote/core';
import { en, es } from '@blocknote/core/locales';
import { BlockNoteView } from '@blocknote/mantine';
import { useCreateBlockNote } from '@blocknote/react';
import { useComputedColorScheme } from '@mantine/core';
import type { DocumentBlock } from '@pluma/common/documents';
import { useEffect } from 'react';
import type { StreamEditor } from './markdown-stream';

export interface EditorHandle {
  /** The blocks and their HTML as they are now. */
  read: () => { blocks: DocumentBlock[]; content: string };
  /** Generated markdown (tables, strikethrough, task lists) turned into blocks and added at the end (spec part 2 §2). */
  appendMarkdown: (markdown: string) => void;
  /** The editor itself, for streaming a generation into it (markdown-stream.ts). */
  stream: StreamEditor;
}

export interface DocumentEditorProps {
  initialBlocks: DocumentBlock[];
  lang: 'en' | 'es';
  /** The editable area's accessible name. */
  label: string;
  /** A hint shown while the document is empty (never part of its content). */
  placeholder?: string;
  onReady: (handle: EditorHandle) => void;
  onChange: () => void;
  editable?: boolean;
}

export default function DocumentEditor({ initialBlocks, lang, label, placeholder, onReady, onChange, editable = true }: DocumentEditorProps) {
  const dictionary = lang === 'es' ? es : en;
  const editor = useCreateBlockNote({
    initialContent: initialBlocks.length > 0 ? (initialBlocks as PartialBlock[]) : undefined,
    // The empty first heading shows the hint (BlockNote's heading rule outranks its empty-document one).
    dictionary: placeholder ? { ...dictionary, placeholders: { ...dictionary.placeholders, emptyDocument: placeholder, heading: placeholder } } : dictionary,
    domAttributes: { editor: { 'aria-label': label } },
  });
  const scheme = useComputedColorScheme('light');

  useEffect(() => {
    onReady({
      read: () => {
        const blocks = editor.document;
        return { blocks: blocks as unknown as DocumentBlock[], content: editor.blocksToHTMLLossy(blocks) };
      },
      appendMarkdown: (markdown) => {
        const blocks = editor.tryParseMarkdownToBlocks(markdown);
        if (blocks.length === 0) return;
        const last = editor.document.at(-1);
        if (last) editor.insertBlocks(blocks, last, 'after');
        else editor.replaceBlocks(editor.document, blocks);
      },
      stream: editor,
    });
  }, [editor, onReady]);

  return <BlockNoteView editor={editor} editable={editable} theme={scheme} onChange={onChange} data-testid="document-editor" />;
}

// The editor in page tests: BlockNote needs layout APIs jsdom lacks, so a test file mocks ./DocumentEditor
// with this module, vi.mock('./DocumentEditor', () => import('./testing/fake-document-editor')), and
// chooses its stand-in with setupFakeDocumentEditor(Editor) at its top level. The mock is this one shared
// module, not a component of the file's own: test files share one module graph (isolate: false), so the
// editor page loaded by one file, or Vitest's copy of the first file's mock, serves the next file too;
// drawn through here, each file's editor is still its own.
import type { ComponentType } from 'react';
import { afterEach, beforeEach } from 'vitest';
import type { DocumentEditorProps } from '../DocumentEditor';

let chosen: ComponentType<DocumentEditorProps> | null = null;

/** Draws `editor` wherever the page shows its editor, in each test of the calling file. */
export function setupFakeDocumentEditor(editor: ComponentType<DocumentEditorProps>) {
  beforeEach(() => {
    chosen = editor;
  });
  afterEach(() => {
    chosen = null;
  });
}

export default function FakeDocumentEditor(props: DocumentEditorProps) {
  const Editor = chosen;
  if (!Editor) throw new Error('No fake editor: call setupFakeDocumentEditor(Editor) in the test file.');
  return <Editor {...props} />;
}

// Server-side texts of the documents feature in both languages (merged into messages.ts).
// The spec's own texts (part 2 §5, §8) are verbatim.
export const documentsMessagesEn = {
  document_too_large: 'The file length is too large, please remove text to save',
  document_blocks_with_content: 'The blocks and their HTML are saved together.',
} as const;

export const documentsMessagesEs: Record<keyof typeof documentsMessagesEn, string> = {
  document_too_large: 'El archivo es demasiado largo, elimina texto para poder guardarlo',
  document_blocks_with_content: 'Los bloques y su HTML se guardan juntos.',
};

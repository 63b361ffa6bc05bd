// Server-side texts of the documents feature in both languages (merged into messages.ts).
// The spec's own texts (part 2 §5, §8) are verbatim.
export const documentsMessagesEn = {
  document_too_large: 'The file length is too large, please remove text to save',
  document_blocks_with_content: 'The blocks and their HTML are saved together.',
  // Generation into a document (POST /documents/avatar-output).
  document_instruction_required: 'Please type in an instruction.',
  document_message_required: 'Please type in a message for your avatar.',
  document_avatar_required: 'Please select an avatar',
  document_template_required: 'Please select a template',
  document_campaign_needs_document: 'A campaign generation writes into one of its documents.',
  document_generate_file_type: 'Only .docx, .pdf, .pptx and .txt files can be used.',
  document_generate_file_unreadable: 'The file could not be read.',
} as const;

export const documentsMessagesEs: Record<keyof typeof documentsMessagesEn, string> = {
  document_too_large: 'El archivo es demasiado largo, elimina texto para poder guardarlo',
  document_blocks_with_content: 'Los bloques y su HTML se guardan juntos.',
  document_instruction_required: 'Escribe una instrucción.',
  document_message_required: 'Escribe un mensaje para tu avatar.',
  document_avatar_required: 'Selecciona un avatar',
  document_template_required: 'Selecciona una plantilla',
  document_campaign_needs_document: 'Una generación de campaña escribe en uno de sus documentos.',
  document_generate_file_type: 'Solo se pueden usar archivos .docx, .pdf, .pptx y .txt.',
  document_generate_file_unreadable: 'No se pudo leer el archivo.',
};

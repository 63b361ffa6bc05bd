// Server-side texts of the tutorials feature in both languages (merged into messages.ts).
export const tutorialsMessagesEn = {
  tutorial_name_required: 'The input can\'t be empty',
  tutorial_name_too_long: 'The name can have at most 200 characters.',
  tutorial_description_too_long: 'The description can have at most 2000 characters.',
  tutorial_src_required: 'Add the video link.',
  tutorial_src_invalid: 'The video must be an http:// or https:// link: a YouTube or Vimeo video, or a video file.',
  tutorial_thumbnail_invalid: 'The thumbnail must be an http:// or https:// image address.',
  tutorial_thumbnail_file_invalid: 'The thumbnail must be an image uploaded as public.',
  tutorial_order_invalid: 'Send the tutorials to order, each once.',
  tutorial_order_mixed_languages: 'Only tutorials of one language can be ordered together.',
} as const;

export const tutorialsMessagesEs: Record<keyof typeof tutorialsMessagesEn, string> = {
  tutorial_name_required: 'El campo no puede estar vacío',
  tutorial_name_too_long: 'El nombre puede tener como máximo 200 caracteres.',
  tutorial_description_too_long: 'La descripción puede tener como máximo 2000 caracteres.',
  tutorial_src_required: 'Añade el enlace del video.',
  tutorial_src_invalid: 'El video debe ser un enlace http:// o https://: un video de YouTube o Vimeo, o un archivo de video.',
  tutorial_thumbnail_invalid: 'La miniatura debe ser la dirección http:// o https:// de una imagen.',
  tutorial_thumbnail_file_invalid: 'La miniatura debe ser una imagen subida como pública.',
  tutorial_order_invalid: 'Envía los tutoriales a ordenar, cada uno una vez.',
  tutorial_order_mixed_languages: 'Solo se pueden ordenar juntos tutoriales del mismo idioma.',
};

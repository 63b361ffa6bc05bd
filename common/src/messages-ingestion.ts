// Server-side texts of file reading (issue 27: the ingestion pipeline) in both languages (merged into messages.ts).
// Keys are `ingestion_<reason>` for each IngestionFailure (common/ingestion.ts); {placeholders} come from
// ingestionFailureParams.
export const ingestionMessagesEn = {
  ingestion_unsupported_type: 'This type of file cannot be read. Use a .docx, .pdf, .pptx or .txt file.',
  ingestion_damaged: 'This file is damaged or incomplete and could not be read. Try saving it again or use another file.',
  ingestion_too_large: 'This file is too large to read: it expands to more than {mb} MB.',
  ingestion_too_many_entries: 'This file is too complex to read: it holds more than {max} parts.',
  ingestion_too_deep: 'This file is too complex to read: its content is nested more than {max} levels deep.',
  ingestion_xml_entities: 'This file cannot be read: it declares XML entities, which documents never need.',
  ingestion_too_many_pages: 'This PDF is too long to read: it has more than {max} pages.',
  ingestion_too_much_text: 'This file has too much text to read: more than {max} characters.',
  ingestion_too_slow: 'This file took too long to read (more than {seconds} seconds).',
  ingestion_too_much_memory: 'This file needs too much memory to read.',
  ingestion_busy: 'Too many files are being read right now. Please try again in a moment.',
  message_too_many_files: 'At most 10 files can be attached to a message.',
} as const;

export const ingestionMessagesEs: Record<keyof typeof ingestionMessagesEn, string> = {
  ingestion_unsupported_type: 'Este tipo de archivo no se puede leer. Usa un archivo .docx, .pdf, .pptx o .txt.',
  ingestion_damaged: 'Este archivo está dañado o incompleto y no se pudo leer. Vuelve a guardarlo o usa otro archivo.',
  ingestion_too_large: 'Este archivo es demasiado grande para leerlo: al descomprimirlo ocupa más de {mb} MB.',
  ingestion_too_many_entries: 'Este archivo es demasiado complejo para leerlo: contiene más de {max} partes.',
  ingestion_too_deep: 'Este archivo es demasiado complejo para leerlo: su contenido está anidado en más de {max} niveles.',
  ingestion_xml_entities: 'Este archivo no se puede leer: declara entidades XML, que los documentos nunca necesitan.',
  ingestion_too_many_pages: 'Este PDF es demasiado largo para leerlo: tiene más de {max} páginas.',
  ingestion_too_much_text: 'Este archivo tiene demasiado texto para leerlo: más de {max} caracteres.',
  ingestion_too_slow: 'Este archivo tardó demasiado en leerse (más de {seconds} segundos).',
  ingestion_too_much_memory: 'Este archivo necesita demasiada memoria para leerlo.',
  ingestion_busy: 'Se están leyendo demasiados archivos en este momento. Inténtalo de nuevo en un momento.',
  message_too_many_files: 'Se pueden adjuntar como máximo 10 archivos a un mensaje.',
};

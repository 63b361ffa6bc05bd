// Server-side texts of the super-fetch feature in both languages (merged into messages.ts).
export const superFetchMessagesEn = {
  super_fetch_input_required: "The input can't be empty",
  super_fetch_feedback_required: 'Write your feedback before asking for a modified prompt.',
  super_fetch_outputs_range: 'Choose between 1 and 10 outputs.',
  super_fetch_not_in_organization: 'Super Fetch is only available in your personal space, not in an organization.',
  super_fetch_file_type: 'Super Fetch reads .docx, .pdf, .pptx and .txt files.',
  super_fetch_file_unreadable: 'The file could not be read. Try another file or paste its text into the form.',
  super_fetch_no_previous_run: 'There are no results to give feedback on yet.',
  super_fetch_output_pending: 'Wait until the output is finished to rate it.',
  super_fetch_fields_count: 'Send the nine Super Fetch inputs in order: task, topic, target audience, persona, tone, formula, examples, call to action and prompt.',
} as const;

export const superFetchMessagesEs: Record<keyof typeof superFetchMessagesEn, string> = {
  super_fetch_input_required: 'El campo no puede estar vacío',
  super_fetch_feedback_required: 'Escribe tu retroalimentación antes de pedir un prompt modificado.',
  super_fetch_outputs_range: 'Elige entre 1 y 10 resultados.',
  super_fetch_not_in_organization: 'Super Fetch solo está disponible en tu espacio personal, no en una organización.',
  super_fetch_file_type: 'Super Fetch lee archivos .docx, .pdf, .pptx y .txt.',
  super_fetch_file_unreadable: 'No se pudo leer el archivo. Prueba con otro archivo o pega su texto en el formulario.',
  super_fetch_no_previous_run: 'Todavía no hay resultados sobre los que dar retroalimentación.',
  super_fetch_output_pending: 'Espera a que el resultado termine para calificarlo.',
  super_fetch_fields_count: 'Envía los nueve campos de Super Fetch en orden: tarea, tema, público objetivo, persona, tono, fórmula, ejemplos, llamada a la acción y prompt.',
};

// Server-side texts of the ideas feature (topics and hashtags, spec part 2 §2) in both languages (merged into
// messages.ts).
export const ideasMessagesEn = {
  // spec part 2 §8 inline: 'The input can't be empty'
  ideas_subject_required: "The input can't be empty",
  ideas_subject_too_long: 'The subject can have at most 1000 characters.',
  // spec part 2 §2: 2 to 5 topic ideas, 10 to 20 hashtags
  ideas_topics_count: 'Ask for 2 to 5 topics.',
  ideas_hashtags_count: 'Ask for 10 to 20 hashtags.',
  // The provider's own message: the web prefixes it with 'Open AI Error: ' (spec part 2 §8).
  ideas_provider_error: '{detail}',
  ideas_unparsed: 'The AI answer held no ideas we could read. Please try again.',
  // issue 30 item 1: the user stopped it (the request was closed); nothing is kept or charged.
  ideas_stopped: 'Stopped. Nothing was saved or charged.',
} as const;

export const ideasMessagesEs: Record<keyof typeof ideasMessagesEn, string> = {
  ideas_subject_required: 'El campo no puede estar vacío',
  ideas_subject_too_long: 'El tema puede tener como máximo 1000 caracteres.',
  ideas_topics_count: 'Pide de 2 a 5 temas.',
  ideas_hashtags_count: 'Pide de 10 a 20 hashtags.',
  ideas_provider_error: '{detail}',
  ideas_unparsed: 'La respuesta de la IA no tenía ideas legibles. Inténtalo de nuevo.',
  ideas_stopped: 'Detenido. No se guardó ni se cobró nada.',
};

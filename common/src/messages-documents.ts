// Server-side texts of the documents feature in both languages (merged into messages.ts).
export const documentsMessagesEn = {} as const;

export const documentsMessagesEs: Record<keyof typeof documentsMessagesEn, string> = {};

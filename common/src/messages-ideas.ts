// Server-side texts of the ideas feature in both languages (merged into messages.ts).
export const ideasMessagesEn = {} as const;

export const ideasMessagesEs: Record<keyof typeof ideasMessagesEn, string> = {};

// Server-side texts of the tutorials feature in both languages (merged into messages.ts).
export const tutorialsMessagesEn = {} as const;

export const tutorialsMessagesEs: Record<keyof typeof tutorialsMessagesEn, string> = {};

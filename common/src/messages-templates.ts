// Server-side texts of the templates feature in both languages (merged into messages.ts).
export const templatesMessagesEn = {} as const;

export const templatesMessagesEs: Record<keyof typeof templatesMessagesEn, string> = {};

// Server-side texts of the widgets feature in both languages (merged into messages.ts).
export const widgetsMessagesEn = {} as const;

export const widgetsMessagesEs: Record<keyof typeof widgetsMessagesEn, string> = {};

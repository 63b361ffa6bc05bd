// Server-side texts of the campaigns feature in both languages (merged into messages.ts).
export const campaignsMessagesEn = {} as const;

export const campaignsMessagesEs: Record<keyof typeof campaignsMessagesEn, string> = {};

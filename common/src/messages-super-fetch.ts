// Server-side texts of the super-fetch feature in both languages (merged into messages.ts).
export const superFetchMessagesEn = {} as const;

export const superFetchMessagesEs: Record<keyof typeof superFetchMessagesEn, string> = {};

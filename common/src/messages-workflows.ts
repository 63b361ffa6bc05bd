// Server-side texts of the workflows feature in both languages (merged into messages.ts).
export const workflowsMessagesEn = {} as const;

export const workflowsMessagesEs: Record<keyof typeof workflowsMessagesEn, string> = {};

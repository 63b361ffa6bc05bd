// Server-side texts of the feature switches (spec part 1 §2 "Main navigation tabs", §3 app configuration;
// server/src/features/appconfig/feature-gate.ts), merged into messages.ts.
export const featuresMessagesEn = {
  feature_disabled: 'This feature is not available.',
} as const;

export const featuresMessagesEs: Record<keyof typeof featuresMessagesEn, string> = {
  feature_disabled: 'Esta función no está disponible.',
};

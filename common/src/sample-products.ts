// The two sample plans a fresh installation offers (server/src/features/products/seed.ts). Their texts
// are shipped in English; the web shows a text that is still exactly the shipped one in the visitor's
// language (translation keys under `pricing.samples`), and a text the operator changed as written —
// the same rule as the configuration's shipped texts (docs/decisions.md, "Language").

export const SAMPLE_PRODUCTS = {
  starter: {
    name: 'Starter',
    description: '50,000 words for 30 days: chat, templates and documents.',
    shortDescription: '50,000 words · 30 days',
  },
  pro: {
    name: 'Pro',
    description: 'Unlimited words, avatars and every tool, billed monthly.',
    shortDescription: 'Unlimited words · monthly',
  },
} as const;

export type SampleProductKey = keyof typeof SAMPLE_PRODUCTS;
export type SampleProductField = keyof (typeof SAMPLE_PRODUCTS)[SampleProductKey];

/** Which sample plan's shipped `field` this text is, or null (an operator's own text). */
export function sampleProductOf(field: SampleProductField, text: string | null | undefined): SampleProductKey | null {
  if (!text) return null;
  for (const key of Object.keys(SAMPLE_PRODUCTS) as SampleProductKey[]) {
    if (SAMPLE_PRODUCTS[key][field] === text) return key;
  }
  return null;
}

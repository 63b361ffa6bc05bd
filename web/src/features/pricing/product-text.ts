// A product's name and descriptions in the visitor's language. The sample plans a fresh installation
// seeds are shipped in English; while a text is still exactly the shipped one it is shown from
// `pricing.samples` (so in Spanish on Spanish screens). Operators' own products, and sample texts they
// edited, are shown as typed (docs/decisions.md, "Language").
import { sampleProductOf, type SampleProductField } from '@pluma/common/sample-products';
import type { TFunction } from 'i18next';

interface ProductTexts {
  name: string;
  description?: string | null;
  short_description?: string | null;
}

const FIELD_OF = { name: 'name', description: 'description', short_description: 'shortDescription' } as const satisfies Record<
  keyof ProductTexts,
  SampleProductField
>;

export function productText(product: ProductTexts, field: keyof ProductTexts, t: TFunction): string {
  const text = product[field] ?? '';
  const sample = sampleProductOf(FIELD_OF[field], text);
  return sample ? t(`pricing.samples.${sample}.${FIELD_OF[field]}`) : text;
}

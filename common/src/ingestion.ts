// The limits every file a user gives the product is read within (issue 27: one ingestion pipeline), and the
// reasons a file can fail to be read. The server enforces them; the web shows the same numbers in its texts.

export const INGESTION_LIMITS = {
  /** Bytes a zip container (docx, pptx, xlsx) may expand to, all entries together. */
  maxExpandedBytes: 100 * 1024 * 1024,
  /** Entries in a zip container. */
  maxZipEntries: 5_000,
  /** Nesting depth of an XML part (Word nests tables in tables, rarely more than a few dozen levels). */
  maxXmlDepth: 256,
  /** Pages of a PDF. */
  maxPdfPages: 1_000,
  /** Characters of text taken out of one file. */
  maxCharacters: 3_000_000,
  /** Wall time reading one file, from the start of its worker. */
  timeLimitMs: 60_000,
  /** Heap of the worker that reads a file. */
  heapMb: 384,
} as const;

/** Why a file could not be read; each has a translated text (common/messages-ingestion.ts, web files.index.reasons). */
export const INGESTION_FAILURES = [
  'unsupported_type',
  'damaged',
  'too_large',
  'too_many_entries',
  'too_deep',
  'xml_entities',
  'too_many_pages',
  'too_much_text',
  'too_slow',
  'too_much_memory',
] as const;
export type IngestionFailure = (typeof INGESTION_FAILURES)[number];

export function isIngestionFailure(value: unknown): value is IngestionFailure {
  return (INGESTION_FAILURES as readonly unknown[]).includes(value);
}

/** The numbers a failure's text names ({mb}, {max}, {seconds}). */
export function ingestionFailureParams(reason: IngestionFailure): Record<string, number> {
  switch (reason) {
    case 'too_large':
      return { mb: Math.round(INGESTION_LIMITS.maxExpandedBytes / (1024 * 1024)) };
    case 'too_many_entries':
      return { max: INGESTION_LIMITS.maxZipEntries };
    case 'too_deep':
      return { max: INGESTION_LIMITS.maxXmlDepth };
    case 'too_many_pages':
      return { max: INGESTION_LIMITS.maxPdfPages };
    case 'too_much_text':
      return { max: INGESTION_LIMITS.maxCharacters };
    case 'too_slow':
      return { seconds: Math.round(INGESTION_LIMITS.timeLimitMs / 1000) };
    default:
      return {};
  }
}

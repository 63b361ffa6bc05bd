// A file that could not be read, and why (issue 27). The reason is one of common/ingestion.ts's
// IngestionFailure values, each with a translated text; `detail` is for logs only.
import { INGESTION_LIMITS, type IngestionFailure } from '@pluma/common/ingestion';

export class FileReadFailure extends Error {
  constructor(
    readonly reason: IngestionFailure,
    readonly detail?: string,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = 'FileReadFailure';
  }
}

/** The limits one read runs within (the worker enforces these; time and memory are the pool's). */
export interface ContentLimits {
  maxExpandedBytes: number;
  maxZipEntries: number;
  maxXmlDepth: number;
  maxPdfPages: number;
  maxCharacters: number;
}

export const contentLimits = (): ContentLimits => ({
  maxExpandedBytes: INGESTION_LIMITS.maxExpandedBytes,
  maxZipEntries: INGESTION_LIMITS.maxZipEntries,
  maxXmlDepth: INGESTION_LIMITS.maxXmlDepth,
  maxPdfPages: INGESTION_LIMITS.maxPdfPages,
  maxCharacters: INGESTION_LIMITS.maxCharacters,
});

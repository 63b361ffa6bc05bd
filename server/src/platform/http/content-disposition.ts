// The one Content-Disposition builder of every download (files, documents, templates, exports, receipts).
// Names come from users, so it must never throw: encodeURIComponent throws URIError on a lone surrogate.
import { encodeExtended } from 'content-disposition';

/** A lone surrogate (half of a UTF-16 pair) anywhere in a string. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * RFC 6266: an ASCII fallback plus the exact name, RFC 8187-encoded by the content-disposition package,
 * with lone surrogates replaced by U+FFFD (they have no UTF-8 form). Both parameters are always sent, and
 * the fallback uses "_" (the package's own `create()` would send a bare `filename=` for ASCII names and "?"
 * for other characters, which is not a valid file name on Windows).
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const wellFormed = name.replace(LONE_SURROGATE, '\uFFFD');
  const ascii = wellFormed.replace(/[^\x20-\x7e]|["\\%;]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=${encodeExtended(wellFormed)}`;
}

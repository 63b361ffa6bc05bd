// Reads a multipart request with one file field (default 'file') and plain fields, for any feature's upload
// route. The size limit is @fastify/multipart's (MAX_UPLOAD_MB): past it toBuffer() fails with a 413.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../platform/http/errors';
import type { Upload } from './service';

export interface MultipartUpload {
  upload: Upload;
  /** Text fields of the form, by name (the last value wins). */
  fields: Record<string, string>;
}

const MAX_FIELD_CHARS = 100_000;

/** The file (required) and fields of a multipart request; 400 'file_required' when the file part is missing. */
export async function readMultipartUpload(request: FastifyRequest, fileField = 'file'): Promise<MultipartUpload> {
  if (!request.isMultipart()) throw badRequest('file_required');
  let upload: Upload | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === fileField && !upload) {
          upload = { fileName: part.filename ?? '', bytes: await part.toBuffer() };
        } else {
          // Unexpected files are read to the end (the parser waits for them) and dropped.
          part.file.resume();
        }
      } else if (typeof part.value === 'string' && part.value.length <= MAX_FIELD_CHARS) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    // The parser's own errors (no boundary, cut-off part…) carry no status: the client sent a broken form.
    // Those with one (413 too large, 406 not multipart…) stand.
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('upload_malformed');
  }
  if (!upload || upload.bytes.length === 0) throw badRequest('file_required');
  return { upload, fields };
}

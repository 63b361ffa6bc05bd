// The multipart form of POST and PUT /widgets (contract B): a `widget` field holding JSON and an optional
// `image` file (the button image). A plain JSON body (the widget object itself) is accepted too.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../platform/http/errors';
import type { Upload } from '../files';

const MAX_FIELD_CHARS = 20_000;

export async function readWidgetForm(request: FastifyRequest): Promise<{ widget: unknown; image: Upload | null }> {
  if (!request.isMultipart()) return { widget: request.body ?? {}, image: null };
  let image: Upload | null = null;
  let json: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'image' && !image) image = { fileName: part.filename ?? '', bytes: await part.toBuffer() };
        // Unexpected files are read to the end (the parser waits for them) and dropped.
        else part.file.resume();
      } else if (part.fieldname === 'widget' && typeof part.value === 'string' && part.value.length <= MAX_FIELD_CHARS) {
        json = part.value;
      }
    }
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('upload_malformed');
  }
  let widget: unknown = {};
  if (json !== null) {
    try {
      widget = JSON.parse(json);
    } catch {
      throw badRequest('widget_form_invalid', { widget: 'widget_form_invalid' });
    }
  }
  return { widget, image: image && image.bytes.length > 0 ? image : null };
}

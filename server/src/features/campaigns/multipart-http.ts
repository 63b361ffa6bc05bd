// The multipart form of POST and PUT /campaigns (spec part 2 §7: "multipart form with thumbnail and campaign
// JSON"): a `campaign` field holding JSON and an optional `thumbnail` file. files/multipart-http.ts requires its
// file; here it is optional (a campaign without a thumbnail shows the default), so the form is read here. A
// plain JSON body (the campaign object itself) is accepted too, for clients without a thumbnail.
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../platform/http/errors';
import type { Upload } from '../files';

const MAX_FIELD_CHARS = 20_000;

export async function readCampaignForm(request: FastifyRequest): Promise<{ campaign: unknown; thumbnail: Upload | null }> {
  if (!request.isMultipart()) return { campaign: request.body ?? {}, thumbnail: null };
  let thumbnail: Upload | null = null;
  let json: string | null = null;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname === 'thumbnail' && !thumbnail) thumbnail = { fileName: part.filename ?? '', bytes: await part.toBuffer() };
        // Unexpected files are read to the end (the parser waits for them) and dropped.
        else part.file.resume();
      } else if (part.fieldname === 'campaign' && typeof part.value === 'string' && part.value.length <= MAX_FIELD_CHARS) {
        json = part.value;
      }
    }
  } catch (err) {
    if ((err as { statusCode?: number }).statusCode) throw err;
    throw badRequest('upload_malformed');
  }
  let campaign: unknown = {};
  if (json !== null) {
    try {
      campaign = JSON.parse(json);
    } catch {
      throw badRequest('campaign_form_invalid', { campaign: 'campaign_form_invalid' });
    }
  }
  return { campaign, thumbnail: thumbnail && thumbnail.bytes.length > 0 ? thumbnail : null };
}

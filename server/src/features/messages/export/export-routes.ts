// POST /api/messages/pdf and /api/messages/word (spec part 2 §7, {text} → a file). The rendering runs in
// worker threads (export-pool.ts), so a heavy text never holds up other requests. Mounted by messageRoutes.
import { exportMessageRequest } from '@pluma/common/messages-api';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createExportPool } from './export-pool';
import { withSources } from './sources';
import { signedIn } from '../../../platform/auth/guard';
import { contentDisposition } from '../../../platform/http/content-disposition';

const tags = ['messages'];
const exportLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

const FORMATS = [
  { url: '/messages/pdf', format: 'pdf', type: 'application/pdf', file: 'message.pdf' },
  { url: '/messages/word', format: 'docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', file: 'message.docx' },
] as const;

export function registerExportRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const pool = createExportPool();
  app.addHook('onClose', () => pool.close());

  for (const { url, format, type, file } of FORMATS) {
    app.post(url, { ...signedIn(app, { tags, body: exportMessageRequest }), config: exportLimit }, async (request, reply) => {
      const { text, sources, sources_heading } = request.body;
      const bytes = await pool.render(format, withSources(text, sources, sources_heading));
      return reply.header('Content-Type', type).header('Content-Disposition', contentDisposition('attachment', file)).send(bytes);
    });
  }
}

// /api/users/ai-key — the user's own AI-provider key (spec part 1 §1, §2 Settings): read (masked), save,
// test, remove. Any signed-in user may keep a key (Settings is open without access); using it for
// avatars and trainings needs access (features/avatars).
import { aiKeyStatus, aiKeyTestResult, saveAiKeyRequest, testAiKeyRequest } from '@pluma/common/avatars';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf, signedIn } from '../../platform/auth/guard';
import { getAiKey, removeAiKey, saveAiKey, testAiKey } from './ai-key-service';
import { presentAiKey } from './present';

export async function aiKeyRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const tags = ['users'];

  app.get('/ai-key', signedIn(app, { tags, response: { 200: aiKeyStatus } }), async (request) => presentAiKey(await getAiKey({ actor: actorOf(request), db: ctx.db })));

  app.put('/ai-key', signedIn(app, { tags, body: saveAiKeyRequest, response: { 200: aiKeyStatus } }), async (request) =>
    presentAiKey(await saveAiKey({ ctx, actor: actorOf(request), apiKey: request.body.api_key })),
  );

  app.delete('/ai-key', signedIn(app, { tags, response: { 200: aiKeyStatus } }), async (request) => {
    await removeAiKey({ actor: actorOf(request), db: ctx.db });
    return presentAiKey(null);
  });

  // Each test is a call to the provider: limited like the upload routes.
  app.post(
    '/ai-key/test',
    { ...signedIn(app, { tags, body: testAiKeyRequest, response: { 200: aiKeyTestResult } }), config: { rateLimit: { max: 10, timeWindow: '1 minute' } } },
    async (request) => testAiKey({ ctx, actor: actorOf(request), typed: request.body?.api_key }),
  );
}

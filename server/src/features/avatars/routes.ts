// /api/avatars (spec part 2 §7 "Avatars") and POST /api/users/resetDefaultAvatar. Thin: authenticate (and
// resolve the organization) → gates → validate → service (scoped by policy.ts) → present (with abilities).
// Every avatar route needs access (spec part 1 §6: has_access for avatars; 412 'premium_required', shown
// by the web as 'This is a premium feature…'); creating one (new, clone, combine) also needs the user's
// own AI key (spec part 1 §1; 409 'ai_key_required'), and so does a refine (the model runs on that key).
import {
  addContextRequest,
  avatarActionRequest,
  avatarAssistantParams,
  avatarFile,
  avatarFileList,
  avatarFileParams,
  avatarFileRefParams,
  avatarIdParams,
  avatarList,
  avatarWithFiles,
  cloneAvatarRequest,
  combineAvatarsRequest,
  createAvatarRequest,
  deletedResponse,
  createAvatarTextFileRequest,
  editAvatarTextRequest,
  editableFileForm,
  editableFileParams,
  listAvatarsQuery,
  resetDefaultAvatarRequest,
  resetDefaultAvatarResponse,
  updateAvatarRequest,
} from '@pluma/common/avatars';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { getConfig } from '../../platform/appconfig/read';
import type { Actor } from '../../platform/auth/actor';
import { actorOf, signedIn, type Gate } from '../../platform/auth/guard';
import { badRequest } from '../../platform/http/errors';
import { parseForm } from '../../platform/http/parse-form';
import { featureGate } from '../appconfig';
import { accessGate } from '../credits';
import { contentDisposition } from '../../platform/http/content-disposition';
import { readMultipartUpload } from '../files';
import { aiKeyRequired, hasUserAiKey } from '../users';
import { discardUnlinkedFiles } from './files-store';
import { requestRefine, startRefineWorker, syncAvatarFiles } from './refine';
import type { CappedTotal } from '../../db/capped-count';
import {
  type AvatarFileOf,
  addAvatarFile,
  createAvatarTextFile,
  deleteAvatarFile,
  editAvatarFileText,
  findAvatarOfFile,
  listAvatarFiles,
  openAvatarFile,
  requireAvatarForUpload,
  retryAvatarFileIndexing,
} from './files-service';
import {
  cloneAvatar,
  combineAvatars,
  createAvatar,
  deleteAvatar,
  getAvatar,
  getSuperFetchAvatar,
  listAvatars,
  listPublicAvatars,
  loadAvatarDetail,
  type AvatarListRow,
  resetDefaultAvatars,
  updateAvatar,
} from './service';
import { presentAvatar, presentAvatarFile, presentAvatarWithFiles } from './present';

const tags = ['avatars'];

// The service returns rows; these give them their JSON with the actor's abilities (DESIGN.md §7).
const presentList = (actor: Actor, { rows, total, nextCursor }: { rows: AvatarListRow[]; total: CappedTotal; nextCursor: string | null }) => ({
  avatars: rows.map((r) => presentAvatar(actor, r.avatar, r)),
  total: total.total,
  total_capped: total.capped,
  next_cursor: nextCursor,
});
const presentFile = (actor: Actor, f: AvatarFileOf) => presentAvatarFile(actor, f.avatar, f);

const uploadLimit = { rateLimit: { max: 30, timeWindow: '1 minute' } };

export async function avatarRoutes(root: FastifyInstance) {
  const app = root.withTypeProvider<ZodTypeProvider>();
  const { ctx } = app;
  const { db } = ctx;
  await startRefineWorker(ctx);
  const avatarsOn = featureGate(app, 'avatars_enabled');
  const access = { gates: [avatarsOn, accessGate(app)] };
  const aiKeyGate: Gate = async (request) => {
    if (!(await hasUserAiKey({ actor: actorOf(request), db }))) throw aiKeyRequired();
  };
  const creating = { gates: [avatarsOn, accessGate(app), aiKeyGate] };

  app.get('/avatars', signedIn(app, { tags, querystring: listAvatarsQuery, response: { 200: avatarList } }, access), async (request) => {
    const actor = actorOf(request);
    return presentList(actor, await listAvatars({ actor, db, query: request.query }));
  });

  app.get('/avatars/public/all', signedIn(app, { tags, querystring: listAvatarsQuery, response: { 200: avatarList } }, access), async (request) => {
    const actor = actorOf(request);
    return presentList(actor, await listPublicAvatars({ actor, db, query: request.query }));
  });

  // The Super Fetch screen's own avatar: there with super_fetch, whatever avatars_enabled says.
  app.get('/avatars/super-fetch', signedIn(app, { tags, response: { 200: avatarWithFiles } }, { gates: [featureGate(app, 'super_fetch'), accessGate(app)] }), async (request) => {
    const actor = actorOf(request);
    return presentAvatarWithFiles(actor, await getSuperFetchAvatar({ actor, db, defaultContext: await getConfig(ctx, 'super_fetch_prompt') }));
  });

  app.get('/avatars/:id', signedIn(app, { tags, params: avatarIdParams, response: { 200: avatarWithFiles } }, access), async (request) => {
    const actor = actorOf(request);
    return presentAvatarWithFiles(actor, await getAvatar({ actor, db, avatarId: request.params.id }));
  });

  app.post('/avatars', signedIn(app, { tags, body: createAvatarRequest, response: { 201: avatarWithFiles } }, creating), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentAvatarWithFiles(actor, await createAvatar({ actor, db, input: request.body })));
  });

  app.put('/avatars', signedIn(app, { tags, body: updateAvatarRequest, response: { 200: avatarWithFiles } }, access), async (request) => {
    const actor = actorOf(request);
    return presentAvatarWithFiles(actor, await updateAvatar({ actor, db, input: request.body }));
  });

  app.put(
    '/avatars/add-context/:id',
    signedIn(app, { tags, params: avatarIdParams, body: addContextRequest, response: { 200: avatarWithFiles } }, access),
    async (request) => {
      const actor = actorOf(request);
      return presentAvatarWithFiles(actor, await updateAvatar({ actor, db, input: { avatar_id: request.params.id, ...request.body } }));
    },
  );

  app.delete('/avatars/:id', signedIn(app, { tags, params: avatarIdParams, response: { 200: deletedResponse } }, access), async (request) => {
    const { fileIds } = await deleteAvatar({ actor: actorOf(request), db, avatarId: request.params.id });
    await discardUnlinkedFiles(ctx, fileIds);
    return { deleted: true as const };
  });

  app.post('/avatars/clone', signedIn(app, { tags, body: cloneAvatarRequest, response: { 201: avatarWithFiles } }, creating), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentAvatarWithFiles(actor, await cloneAvatar({ actor, db, input: request.body })));
  });

  app.post('/avatars/combine', signedIn(app, { tags, body: combineAvatarsRequest, response: { 201: avatarWithFiles } }, creating), async (request, reply) => {
    const actor = actorOf(request);
    return reply.status(201).send(presentAvatarWithFiles(actor, await combineAvatars({ actor, db, input: request.body })));
  });

  // spec part 2 §7 POST /avatars/refine {avatar_id}: queued (up to 15 minutes, §4) on the requester's own key,
  // so it needs the key like creating an avatar; owner or admin only. 202: the state is on the avatar.
  app.post('/avatars/refine', signedIn(app, { tags, body: avatarActionRequest, response: { 202: avatarWithFiles } }, creating), async (request, reply) => {
    const actor = actorOf(request);
    const avatar = await requestRefine({ ctx, actor, avatarId: request.body.avatar_id, present: async (row) => presentAvatarWithFiles(actor, await loadAvatarDetail({ actor, db, row })) });
    return reply.status(202).send(avatar);
  });

  // POST /avatars/sync {avatar_id}: re-index every file of the avatar (background jobs; owner or admin). No
  // provider call on the user's key happens here, so access is enough.
  app.post('/avatars/sync', signedIn(app, { tags, body: avatarActionRequest, response: { 202: avatarWithFiles } }, access), async (request, reply) => {
    const actor = actorOf(request);
    const avatar = await syncAvatarFiles({ ctx, actor, avatarId: request.body.avatar_id, present: async (row) => presentAvatarWithFiles(actor, await loadAvatarDetail({ actor, db, row })) });
    return reply.status(202).send(avatar);
  });

  // ---- files ----

  app.get('/avatars/:id/files', signedIn(app, { tags, params: avatarIdParams, response: { 200: avatarFileList } }, access), async (request) => {
    const actor = actorOf(request);
    const { avatar, files } = await listAvatarFiles({ ctx, actor, avatarId: request.params.id });
    return { avatar_files: files.map((l) => presentAvatarFile(actor, avatar, l)) };
  });

  // A new, blank editable .txt file, written in the app (issue 30 item 20).
  app.post(
    '/avatars/:id/files/text',
    { ...signedIn(app, { tags, params: avatarIdParams, body: createAvatarTextFileRequest, response: { 201: avatarFile } }, access), config: uploadLimit },
    async (request, reply) => {
      const actor = actorOf(request);
      return reply.status(201).send(presentFile(actor, await createAvatarTextFile({ ctx, actor, avatarId: request.params.id, name: request.body.name })));
    },
  );

  for (const [path, editable] of [
    ['/avatars/add-file/:id', false],
    ['/avatars/add-editable-file/:id', true],
  ] as const) {
    app.post(
      path,
      { ...signedIn(app, { tags, params: avatarIdParams, consumes: ['multipart/form-data'], response: { 201: avatarFile } }, access), config: uploadLimit },
      async (request, reply) => {
        const actor = actorOf(request);
        // Checked before the upload is read: another user's avatar stores nothing.
        await requireAvatarForUpload({ ctx, actor, avatarId: request.params.id });
        const { upload } = await readMultipartUpload(request);
        return reply.status(201).send(presentFile(actor, await addAvatarFile({ ctx, actor, avatarId: request.params.id, upload, editable })));
      },
    );
  }

  // The spec's own paths for the same calls (spec part 2 §7 "Avatars"; common/avatars.ts reads {a}/{b} as the
  // avatar and its provider assistant, 'null' when it has none). Same gates, same services.
  for (const [path, editable] of [
    ['/avatars/add-file/:id/:assistant_id', false],
    ['/avatars/add-editable-file/:id/:assistant_id', true],
  ] as const) {
    app.post(
      path,
      { ...signedIn(app, { tags, params: avatarAssistantParams, consumes: ['multipart/form-data'], response: { 201: avatarFile } }, access), config: uploadLimit },
      async (request, reply) => {
        const actor = actorOf(request);
        await requireAvatarForUpload({ ctx, actor, avatarId: request.params.id, assistantRef: request.params.assistant_id });
        const { upload } = await readMultipartUpload(request);
        return reply.status(201).send(presentFile(actor, await addAvatarFile({ ctx, actor, avatarId: request.params.id, upload, editable })));
      },
    );
  }

  // PUT /avatars/editable-file/{file_id} (multipart): the editable file's new text, sent as a .txt file (spec
  // part 2 §2 "edit file text (saved as .txt)"); `avatar_id` picks the link when several avatars share the file.
  app.put(
    '/avatars/editable-file/:file_id',
    { ...signedIn(app, { tags, params: editableFileParams, consumes: ['multipart/form-data'], response: { 200: avatarFile } }, access), config: uploadLimit },
    async (request) => {
      const actor = actorOf(request);
      const fileId = request.params.file_id;
      // Checked before the upload is read: a file of no avatar the actor sees stores nothing.
      await findAvatarOfFile({ ctx, actor, fileId });
      const { upload, fields } = await readMultipartUpload(request);
      const { avatar_id: avatarId } = parseForm(editableFileForm, fields);
      if (!/\.txt$/i.test(upload.fileName)) throw badRequest('avatar_text_file_only', { file: 'avatar_text_file_only' });
      const { content } = parseForm(editAvatarTextRequest, { content: upload.bytes.toString('utf8') });
      return presentFile(actor, await editAvatarFileText({ ctx, actor, avatarId: await findAvatarOfFile({ ctx, actor, fileId, avatarId }), fileId, content }));
    },
  );

  app.delete(
    '/avatars/file/:fileId/:openaiFileId/:assistantId',
    signedIn(app, { tags, params: avatarFileRefParams, response: { 200: deletedResponse } }, access),
    async (request) => {
      const actor = actorOf(request);
      const { fileId, openaiFileId, assistantId } = request.params;
      const avatarId = await findAvatarOfFile({ ctx, actor, fileId, assistantRef: assistantId, openaiFileRef: openaiFileId });
      await deleteAvatarFile({ ctx, actor, avatarId, fileId });
      return { deleted: true as const };
    },
  );

  app.get('/avatars/:id/files/:fileId', signedIn(app, { tags, params: avatarFileParams }, access), async (request, reply) => {
    const { file, body } = await openAvatarFile({ ctx, actor: actorOf(request), avatarId: request.params.id, fileId: request.params.fileId });
    return reply
      .header('Content-Type', file.mime)
      .header('X-Content-Type-Options', 'nosniff')
      .header('Content-Disposition', contentDisposition('attachment', file.name))
      .header('Content-Security-Policy', "default-src 'none'; sandbox")
      .header('Cache-Control', 'private, no-store')
      .header('Content-Length', String(file.size))
      .send(body);
  });

  app.put(
    '/avatars/:id/files/:fileId/text',
    { ...signedIn(app, { tags, params: avatarFileParams, body: editAvatarTextRequest, response: { 200: avatarFile } }, access), config: uploadLimit },
    async (request) => {
      const actor = actorOf(request);
      return presentFile(actor, await editAvatarFileText({ ctx, actor, avatarId: request.params.id, fileId: request.params.fileId, content: request.body.content }));
    },
  );

  app.post(
    '/avatars/:id/files/:fileId/retry',
    { ...signedIn(app, { tags, params: avatarFileParams, response: { 200: avatarFile } }, access), config: uploadLimit },
    async (request) => {
      const actor = actorOf(request);
      return presentFile(actor, await retryAvatarFileIndexing({ ctx, actor, avatarId: request.params.id, fileId: request.params.fileId }));
    },
  );

  app.delete('/avatars/:id/files/:fileId', signedIn(app, { tags, params: avatarFileParams, response: { 200: deletedResponse } }, access), async (request) => {
    await deleteAvatarFile({ ctx, actor: actorOf(request), avatarId: request.params.id, fileId: request.params.fileId });
    return { deleted: true as const };
  });

  // spec part 2 §7 "Users and config": admins reset the default (Super Fetch) avatar.
  app.post(
    '/users/resetDefaultAvatar',
    signedIn(app, { tags, body: resetDefaultAvatarRequest, response: { 200: resetDefaultAvatarResponse } }, { staff: 'admin' }),
    async (request) => {
      const { reset, fileIds } = await resetDefaultAvatars({ actor: actorOf(request), db, userId: request.body?.user_id });
      await discardUnlinkedFiles(ctx, fileIds);
      return { reset };
    },
  );
}

// The OpenAPI document at /api/docs/json is valid for standard tools (issue 30 item 11): every $ref
// resolves, and the security of each route says whether a token is needed, optional or not used.
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app';

interface Operation {
  security?: Record<string, string[]>[];
}

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, unknown> } };
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.app.inject({ url: '/api/docs/json' })).json();
  }, 60_000);
  afterAll(() => t?.close());

  it('validates with swagger-parser (schema and $refs)', async () => {
    // validate() dereferences in place: give it a copy.
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
    // The recursive document blocks are a named component, not a dangling schema0.
    expect(JSON.stringify(doc)).not.toMatch(/schemas\/schema\d/);
    expect(Object.keys(doc.components?.schemas ?? {})).toContain('DocumentBlockInput');
  });

  it("lists every field of the spec's POST /messages with a description, and the thread routes (issue 32)", () => {
    const body = (doc.paths['/api/messages']?.post as { requestBody?: { content: Record<string, { schema: { properties: Record<string, { description?: string }> } }> } }).requestBody;
    const properties = body?.content['application/json'].schema.properties ?? {};
    const spec = ['content', 'conversation_id', 'message_type_id', 'stream', 'avatar_id', 'saveOnConversation', 'searchOnInternet', 'deleteUserMsg', 'learnFromPrevResponse', 'model', 'favorite', 'message_id'];
    for (const field of spec) expect(properties[field]?.description, field).toBeTruthy();
    expect(doc.paths['/api/messages/thread/{id}']?.get).toBeDefined();
    expect(doc.paths['/api/messages/thread/{id}/{x}']?.get).toBeDefined();
  });

  it('marks routes open to visitors as optional-token or public, signed-in ones as bearer', () => {
    const optional = [{}, { bearer: [] }];
    for (const [method, path] of [
      ['get', '/api/files/{ref}'],
      ['get', '/api/products/available'],
      ['get', '/api/products/{id}'],
      ['get', '/api/checkout/config'],
    ]) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual(optional);
    }
    for (const [method, path] of [
      ['get', '/api/health'],
      ['post', '/api/auth/login'],
    ]) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toBeUndefined();
    }
    expect(doc.paths['/api/documents']?.get?.security).toEqual([{ bearer: [] }]);
  });
});

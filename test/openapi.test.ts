import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './support/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

describe('OpenAPI document', () => {
  it('validates as OpenAPI 3 and documents every route with an operationId and tags', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);

    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(item)) {
        expect(op.operationId, `${method} ${path}`).toEqual(expect.any(String));
        expect(operationIds.has(op.operationId), `duplicate ${op.operationId}`).toBe(false);
        operationIds.add(op.operationId);
        expect(op.tags?.length, `${method} ${path} tags`).toBeGreaterThan(0);
      }
    }
  });

  it('lists every route the app serves (except the docs UI and the document itself)', async () => {
    const served: string[] = [];
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    // OpenAPI writes {param} and {*}; Fastify :param and *.
    const documented = new Set(Object.keys(doc.paths).map((p) => p.replace(/\{\*\}/g, '*').replace(/\{(\w+)\}/g, ':$1')));
    for (const route of ctx.app.routeCatalog) {
      const [method, url] = route.split(' ') as [string, string];
      if (method === 'HEAD' || url.startsWith('/docs') || url === '/openapi.json') continue;
      served.push(url);
      expect(documented.has(url), `${route} is not in /openapi.json`).toBe(true);
    }
    expect(served).toContain('/api/v1.0/external/sdworkspace/CurrentWorkspaces');
  });

  it('documents enumerations with every value and its name, and the docs page is served', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const workspace = JSON.stringify(doc);
    expect(workspace).toContain('x-enumNames');
    expect(workspace).toContain('11 = Labelling');
    const page = await ctx.app.inject({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it("documents the status answer's extensions (failureReason, pagesProcessed) on the status, its lists and the exports", async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, { description?: string }>; required?: string[] }>;
    for (const name of ['GetTaskStatusResponse', 'DocumentExportResponse', 'SimplifiedDocumentExportResponse', 'TranscriptExportResponse', 'SimplifiedTranscriptExportResponse']) {
      expect(schemas[name]?.properties.failureReason?.description, `${name}.failureReason`).toMatch(/failure status.*addition to the spec/);
      expect(schemas[name]?.required, name).toContain('failureReason');
    }
    expect(schemas.GetTaskStatusResponse!.properties.pagesProcessed?.description).toMatch(/pages of totalPages read so far/);
    // The lists are pages of the same schema.
    expect(JSON.stringify(schemas.TaskStatusPage)).toContain('#/components/schemas/GetTaskStatusResponse');
  });
});

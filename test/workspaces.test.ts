import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskType, TemplateType, WorkspaceType } from '../src/domain/enums.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

const url = '/api/v1.0/external/sdworkspace/CurrentWorkspaces';

describe('GET sdworkspace/CurrentWorkspaces', () => {
  it("lists exactly the caller's workspaces with the spec's fields", async () => {
    const a = await createTestTenant(ctx);
    const b = await createTestTenant(ctx);
    const transcripts = await createWorkspace(ctx.prisma, { tenantId: a.tenantId, name: 'Calls', templateType: TemplateType.Transcripts });
    const template = await createWorkspace(ctx.prisma, { tenantId: a.tenantId, name: 'Forms', templateType: TemplateType.Template });
    await createWorkspace(ctx.prisma, { tenantId: b.tenantId, name: 'Other org', templateType: TemplateType.Receipts });

    const res = await ctx.app.inject({ method: 'GET', url, headers: a.headers });
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toEqual([
      {
        workspaceId: a.defaultWorkspaceId,
        tenantId: a.tenantId,
        workspaceName: 'Default workspace',
        workspaceDescription: null,
        isDefault: true,
        taskType: TaskType.Document,
        workspaceType: WorkspaceType.Standard,
        templateType: TemplateType.Layout,
        workspaceTemplateName: 'Layout',
      },
      expect.objectContaining({ workspaceId: transcripts.workspaceId, isDefault: false, taskType: TaskType.Transcript, templateType: TemplateType.Transcripts }),
      expect.objectContaining({ workspaceId: template.workspaceId, workspaceType: WorkspaceType.Template, templateType: TemplateType.Template }),
    ]);
    // The other organization sees only its own.
    const other = (await ctx.app.inject({ method: 'GET', url, headers: b.headers })).json();
    expect(other.map((w: { tenantId: number }) => w.tenantId)).toEqual([b.tenantId, b.tenantId]);
  });

  it('exposes no internal columns', async () => {
    const a = await createTestTenant(ctx);
    const [w] = (await ctx.app.inject({ method: 'GET', url, headers: a.headers })).json();
    expect(Object.keys(w).sort()).toEqual(
      ['isDefault', 'taskType', 'templateType', 'tenantId', 'workspaceDescription', 'workspaceId', 'workspaceName', 'workspaceTemplateName', 'workspaceType'].sort(),
    );
  });
});

/**
 * The demo data of `npm start` (src/dev/seed.ts) includes a reviewer who can log in to the
 * reviewer API at once, with the credentials kept in DATA_DIR/demo-credentials.json.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_REVIEWER_EMAIL, seedDemoTenant } from '../src/dev/seed.js';
import { nameOf, TemplateType } from '../src/domain/enums.js';
import { REVIEW_PREFIX } from '../src/modules/review/review.routes.js';
import { createTestContext, requestToken, testConfig } from './support/context.js';

const ctx = await createTestContext();
const dataDir = await mkdtemp(path.join(process.cwd(), '.data', 'demo-seed-'));
const seededTenants: number[] = [];
afterAll(async () => {
  // Demo organizations are not per test like the others: remove this one, so the reviewer's address stays unique.
  await ctx.prisma.tenant.deleteMany({ where: { id: { in: seededTenants } } });
  await rm(dataDir, { recursive: true, force: true });
  await ctx.close();
});

/** The demo organization's workspaces as its API client sees them: name by template. */
async function workspaceNames(demo: { clientId: string; clientSecret: string }): Promise<Record<string, string>> {
  const token = await requestToken(ctx.app, demo.clientId, demo.clientSecret);
  const res = await ctx.app.inject({ method: 'GET', url: '/api/v1.0/external/sdworkspace/CurrentWorkspaces', headers: { authorization: `Bearer ${token}` } });
  expect(res.statusCode, res.body).toBe(200);
  const list = res.json() as Array<{ workspaceName: string; templateType: number }>;
  return Object.fromEntries(list.map((w) => [nameOf(TemplateType, w.templateType)!, w.workspaceName]));
}

const login = (email: string, password: string) => ctx.app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/login`, payload: { email, password } });

describe('the demo seed', () => {
  it('creates a reviewer who logs in through POST /api/v1.0/review/login, and keeps its password across restarts', async () => {
    const config = testConfig({ DATA_DIR: dataDir });
    const demo = await seedDemoTenant(ctx.prisma, config);
    seededTenants.push(demo.tenantId);
    expect(demo.reviewerSeeded).toBe(true);
    expect(demo.reviewer.email).toBe(DEMO_REVIEWER_EMAIL);
    const saved = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8'));
    expect(saved.reviewer).toEqual(demo.reviewer);

    const res = await login(demo.reviewer.email, demo.reviewer.password);
    expect(res.statusCode, res.body).toBe(200);
    const tasks = await ctx.app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks`, headers: { authorization: `Bearer ${res.json().access_token}` } });
    expect(tasks.statusCode, tasks.body).toBe(200);
    expect((await login(demo.reviewer.email, 'not-the-password')).statusCode).toBe(401);

    // A restart finds everything in place: same organization, same reviewer and password.
    const again = await seedDemoTenant(ctx.prisma, config);
    expect(again.tenantId).toBe(demo.tenantId);
    expect(again.reviewerSeeded).toBe(false);
    expect(again.reviewer).toEqual(demo.reviewer);
    expect((await login(demo.reviewer.email, demo.reviewer.password)).statusCode).toBe(200);
  });

  it('names every workspace for what it reads, and names those of a demo organization seeded before it did', async () => {
    const dir = await mkdtemp(path.join(dataDir, 'named-'));
    const config = testConfig({ DATA_DIR: dir });
    const demo = await seedDemoTenant(ctx.prisma, config);
    seededTenants.push(demo.tenantId);
    const expected = {
      InvoicesUniversal: 'Invoices',
      InvoicesPortugal: 'Invoices (Portugal)',
      Receipts: 'Receipts',
      Transcripts: 'Transcripts',
      DocumentAnonymization: 'Document anonymization',
      ImageAnonymization: 'Image anonymization',
      IdentificationDocument: 'ID documents',
      Layout: 'Layout',
      Custom: 'Custom fields',
      Template: 'Templates',
      Labelling: 'Labelling',
    };
    expect(await workspaceNames(demo)).toEqual(expected);

    // A demo organization of an earlier version: its workspaces carry generated names.
    const workspaces = await ctx.prisma.workspace.findMany({ where: { tenantId: demo.tenantId } });
    for (const w of workspaces) {
      const generated = w.isDefault ? 'Default workspace' : `${nameOf(TemplateType, w.templateType)} workspace`;
      await ctx.prisma.workspace.update({ where: { id: w.id }, data: { name: generated } });
    }
    const invoices = workspaces.find((w) => w.templateType === TemplateType.InvoicesUniversal)!;
    await ctx.prisma.workspace.update({ where: { id: invoices.id }, data: { name: 'Our suppliers' } });
    await seedDemoTenant(ctx.prisma, config);
    // Generated names give way; a name someone chose stays.
    expect(await workspaceNames(demo)).toEqual({ ...expected, InvoicesUniversal: 'Our suppliers' });
  });
});

/**
 * Vendor profiles through the HTTP API: a reviewer's corrections of one vendor's
 * invoice teach its organization's profile, the next invoice of that vendor is read with it (the
 * export says which fields came from it), other organizations get nothing from it, a redesigned
 * layout is not forced into wrong values, and the extension routes list, show and delete profiles.
 * Real pipeline (workers on the context's queues), real engines, generated documents.
 */
import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { renderPdfPage } from '../src/engines/pdf.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import type { WorkerPool } from '../src/pipeline/worker.js';
import { EXTERNAL, exportedFields, judge, reviewAndCorrect, submit, waitRecognized } from '../bench/learning/review-loop.js';
import { documentPdf, scannedCopy, SCORED_FIELDS, VENDORS, vendorDocument, type ScoredField, type Vendor, type VendorDocument } from '../bench/learning/vendor-documents.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { startTestWorkers } from './support/pipeline.js';
import { expectProblem } from './support/problem.js';
import { createUser, seedDocumentTask, userHeaders } from './support/review.js';
import { useScratchDir } from './engines/fixtures.js';

const vendor = (key: string): Vendor => VENDORS.find((v) => v.key === key)!;

let ctx: TestContext;
let files: FileServer;
let workers: WorkerPool;
const docs: Record<string, VendorDocument> = {};
const scratch = useScratchDir();

async function scan(pdf: Buffer, seed: number): Promise<Buffer> {
  const file = scratch.file(`render-${seed}.pdf`);
  await writeFile(file, pdf);
  return scannedCopy(pdf, (_, dpi) => renderPdfPage(file, 1, dpi), seed);
}

beforeAll(async () => {
  ctx = await createTestContext();
  const served: Record<string, { body: Buffer; type: string }> = {};
  const add = async (name: string, doc: VendorDocument, scanned?: number) => {
    docs[name] = doc;
    const pdf = await documentPdf(doc);
    served[`/${name}.pdf`] = { body: scanned === undefined ? pdf : await scan(pdf, scanned), type: 'application/pdf' };
  };
  // Northwind: the general model misses its total ("Balance").
  await add('northwind-1', vendorDocument(vendor('northwind'), 1));
  await add('northwind-2', vendorDocument(vendor('northwind'), 2));
  // Bergmann: "Beleg-Nr." in a grid of labels and values; the same again as redesigned.
  await add('bergmann-1', vendorDocument(vendor('bergmann'), 1));
  await add('bergmann-redesigned', vendorDocument(vendor('bergmann'), 3, { redesign: true }));
  // Bergmann's letterhead and name under Northwind's tax number: another seller printing the same number.
  await add('northwind-number-twin-1', vendorDocument({ ...vendor('bergmann'), key: 'northwind-number-twin', taxId: vendor('northwind').taxId }, 1));
  // Tejo: scans, its number as "Documento FT T/…".
  await add('tejo-scan-1', vendorDocument(vendor('tejo'), 1), 11);
  await add('tejo-scan-2', vendorDocument(vendor('tejo'), 2), 12);
  files = await startFileServer(served);
  workers = await startTestWorkers(ctx);
}, 180_000);
afterAll(async () => {
  await workers?.close();
  await ctx?.close();
  await files?.close();
});

interface Org {
  t: TestTenant;
  workspaceId: number;
  reviewer: { authorization: string };
}

async function invoiceOrg(): Promise<Org> {
  const t = await createTestTenant(ctx);
  const { workspaceId } = await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'Invoices', templateType: TemplateType.InvoicesUniversal });
  const user = await createUser(ctx, t, { roleName: 'Administrator' });
  return { t, workspaceId, reviewer: await userHeaders(ctx.app, user) };
}

/** Processes a served document in the organization's invoice workspace; its task and exported fields. */
async function processed(org: Org, name: string) {
  const taskId = await submit(ctx.app, org.t.headers, org.workspaceId, files.url(`/${name}.pdf`));
  expect(await waitRecognized(ctx.app, org.t.headers, taskId)).toBe(TaskStatus.ToReview);
  return { taskId, fields: await exportedFields(ctx.app, org.t.headers, taskId) };
}

const wrongFields = (fields: Awaited<ReturnType<typeof processed>>['fields'], doc: VendorDocument) =>
  Object.entries(judge(fields, doc.expected))
    .filter(([, right]) => !right)
    .map(([f]) => f as ScoredField);

const listProfiles = (org: Org, workspaceId = org.workspaceId, headers = org.t.headers) =>
  ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/workspaces/${workspaceId}`, headers });

describe('the review → profile → next document loop', () => {
  it("reads a vendor's second invoice with what the review of its first taught, and says so in the export", async () => {
    const org = await invoiceOrg();
    const first = await processed(org, 'northwind-1');
    // The general model gets some of this vendor's fields wrong or misses them ("Balance" for its total).
    const missed = wrongFields(first.fields, docs['northwind-1']!);
    expect(missed.length, 'the test needs a vendor the general model does not read perfectly').toBeGreaterThan(0);
    expect([...first.fields.values()].some((e) => e.vendorProfile)).toBe(false);

    const review = await reviewAndCorrect(ctx.app, org.reviewer, first.taskId, docs['northwind-1']!.expected);
    expect([...review.corrected].sort()).toEqual([...missed].sort());

    const list = await listProfiles(org);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().totalCount).toBe(1);
    const profile = list.json().items[0];
    expect(profile).toMatchObject({ workspaceId: org.workspaceId, vendorName: 'Northwind Supplies Ltd', taxIds: ['GB123456789'], reviewCount: 1, lastTaskId: first.taskId });
    const invoiceId = profile.fields.find((f: { field: string }) => f.field === 'InvoiceId');
    expect(invoiceId).toMatchObject({ value: docs['northwind-1']!.expected.InvoiceId.normalized, label: 'Our ref', place: 'inline', located: true, corrected: missed.includes('InvoiceId'), format: 'A-9-9' });
    expect(JSON.stringify(profile)).not.toContain('fingerprint');

    const second = await processed(org, 'northwind-2');
    expect(wrongFields(second.fields, docs['northwind-2']!)).toEqual([]);
    // What the general model missed came from the profile.
    for (const field of missed) expect(second.fields.get(field)!.vendorProfile, field).toMatchObject({ profileId: profile.profileId, fromProfile: true });
    // A field both readings agree on is marked so.
    expect(second.fields.get('VendorName')!.vendorProfile).toMatchObject({ profileId: profile.profileId, agreement: 'agreed' });

    const one = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/${profile.profileId}`, headers: org.t.headers });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual(profile);

    // Its review confirms what the profile gave: the profile is refined with the newest evidence.
    expect((await reviewAndCorrect(ctx.app, org.reviewer, second.taskId, docs['northwind-2']!.expected)).corrected).toEqual([]);
    const refined = (await listProfiles(org)).json().items;
    expect(refined).toHaveLength(1);
    expect(refined[0]).toMatchObject({ profileId: profile.profileId, reviewCount: 2, correctedReviewCount: 0, lastTaskId: second.taskId, weight: 1 });
    // A field the first review corrected and the second confirmed counts one of each.
    const taught = missed[0]!;
    expect(refined[0].fields.find((f: { field: string }) => f.field === taught)).toMatchObject({
      value: docs['northwind-2']!.expected[taught].normalized,
      corrected: false,
      confirmations: 1,
      corrections: 1,
      weight: 1,
      learnedFromTaskId: second.taskId,
    });

    // Deleted, the profile is gone; reprocessing reads with the profiles as they are now: none.
    const deleted = await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/vendorprofiles/${profile.profileId}`, headers: org.t.headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/vendorprofiles/${profile.profileId}`, headers: org.t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/${profile.profileId}`, headers: org.t.headers }), 404);
    expect((await listProfiles(org)).json().totalCount).toBe(0);
    const restart = await ctx.app.inject({ method: 'PATCH', url: `${EXTERNAL}/sdtask/restartprocessing?taskId=${second.taskId}`, headers: org.t.headers });
    expect(restart.statusCode, restart.body).toBe(204);
    expect(await waitRecognized(ctx.app, org.t.headers, second.taskId)).toBe(TaskStatus.ToReview);
    const reread = await exportedFields(ctx.app, org.t.headers, second.taskId);
    expect([...reread.values()].some((e) => e.vendorProfile)).toBe(false);
  }, 120_000);

  it('learns from scans and reads the next scan with it', async () => {
    const org = await invoiceOrg();
    const first = await processed(org, 'tejo-scan-1');
    await reviewAndCorrect(ctx.app, org.reviewer, first.taskId, docs['tejo-scan-1']!.expected);
    const second = await processed(org, 'tejo-scan-2');
    const wrong = wrongFields(second.fields, docs['tejo-scan-2']!);
    expect(wrong.length, `wrong: ${wrong.join(', ')}`).toBeLessThanOrEqual(1);
    expect(second.fields.get('InvoiceId')?.vendorProfile?.fromProfile).toBe(true);
    expect(wrong).not.toContain('InvoiceId');
  }, 300_000);
});

describe('organizations', () => {
  it("never read with another organization's profile, nor see or delete it", async () => {
    const a = await invoiceOrg();
    const b = await invoiceOrg();
    const first = await processed(a, 'northwind-1');
    await reviewAndCorrect(ctx.app, a.reviewer, first.taskId, docs['northwind-1']!.expected);
    const profileId = (await listProfiles(a)).json().items[0].profileId as number;

    // B's identical document: the general model alone.
    const inB = await processed(b, 'northwind-2');
    expect([...inB.fields.values()].some((e) => e.vendorProfile)).toBe(false);

    expect((await listProfiles(b)).json().totalCount).toBe(0);
    expectProblem(await listProfiles(a, a.workspaceId, b.t.headers), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/${profileId}`, headers: b.t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/vendorprofiles/${profileId}`, headers: b.t.headers }), 404);
    expect((await listProfiles(a)).json().totalCount).toBe(1);

    // B's own review of the vendor makes B's own profile; A's stays as it was.
    const before = (await listProfiles(a)).json();
    await reviewAndCorrect(ctx.app, b.reviewer, inB.taskId, docs['northwind-2']!.expected);
    expect((await listProfiles(b)).json().items[0].profileId).not.toBe(profileId);
    expect((await listProfiles(a)).json()).toEqual(before);
  }, 120_000);
});

describe('a vendor whose layout changed', () => {
  it('keeps the general reading where the profile no longer finds its anchors, and never gives a worse document', async () => {
    const org = await invoiceOrg();
    const first = await processed(org, 'bergmann-1');
    await reviewAndCorrect(ctx.app, org.reviewer, first.taskId, docs['bergmann-1']!.expected);
    const redesigned = await processed(org, 'bergmann-redesigned');
    const general = await processed(await invoiceOrg(), 'bergmann-redesigned');

    const doc = docs['bergmann-redesigned']!;
    const withProfile = judge(redesigned.fields, doc.expected);
    const alone = judge(general.fields, doc.expected);
    for (const field of SCORED_FIELDS) {
      // Every field the general model reads right stays right; every value taken from the profile is right.
      if (alone[field]) expect(withProfile[field], `${field} worse with the profile`).toBe(true);
      if (redesigned.fields.get(field)?.vendorProfile?.fromProfile) expect(withProfile[field], `${field} from the profile`).toBe(true);
    }
    // The vendor is recognised (its own values, found by themselves, agree).
    expect(redesigned.fields.get('VendorTaxId')?.vendorProfile).toMatchObject({ agreement: 'agreed' });
    // Where the learned anchors are gone, the general model's value stands, and a reviewer is told to look.
    const missed = [...redesigned.fields.values()].filter((e) => e.vendorProfile?.agreement === 'profileMissed');
    expect(missed.length).toBeGreaterThan(0);
    for (const e of missed) {
      expect(e.vendorProfile!.fromProfile).toBe(false);
      expect(e.confidence, e.category).toBeLessThanOrEqual(0.7);
    }
  }, 120_000);
});

describe("the reviewer's corrections", () => {
  it('add a field the model did not report (addedBy, addedOn), once per chunk', async () => {
    const org = await invoiceOrg();
    const task = await seedDocumentTask(ctx, org.t);
    const patch = (payload: unknown) => ctx.app.inject({ method: 'PATCH', url: `/api/v1.0/review/tasks/${task.id}/entities`, headers: org.reviewer, payload: payload as object });
    expect((await ctx.app.inject({ method: 'POST', url: `/api/v1.0/review/tasks/${task.id}/checkout`, headers: org.reviewer })).statusCode).toBe(200);
    const iban = { category: 'IBAN', content: 'GB82 WEST 1234 5698 7654 32', contentNormalized: 'GB82WEST12345698765432' };
    const added = await patch({ chunks: [{ chunkNumber: 1, addedFields: [iban, { category: 'DueDate', content: '14/02/2026' }] }] });
    expect(added.statusCode, added.body).toBe(200);
    const entities = added.json().chunks[0].entities as Array<{ type: string; category: string; addedBy: number | null; addedOn: string | null; keyValues: Array<{ content: string; contentNormalized: string | null }> }>;
    const [ibanEntity, dueEntity] = ['IBAN', 'DueDate'].map((c) => entities.find((e) => e.type === 'Field' && e.category === c)!);
    expect(ibanEntity).toMatchObject({ addedOn: expect.any(String), keyValues: [{ content: iban.content, contentNormalized: iban.contentNormalized }] });
    expect(ibanEntity!.addedBy).toBeGreaterThan(0);
    expect(dueEntity!.keyValues[0]).toMatchObject({ content: '14/02/2026', contentNormalized: '2026-02-14' });
    expectProblem(await patch({ chunks: [{ chunkNumber: 1, addedFields: [iban] }] }), 400);
    expectProblem(await patch({ chunks: [{ chunkNumber: 1 }] }), 400);
    expectProblem(await patch({ chunks: [{ chunkNumber: 1, addedFields: [{ category: 'IBAN', content: '  ' }] }] }), 400);
  });
});

describe('sellers sharing a tax number', () => {
  it('keep a profile each when their names and letterheads differ', async () => {
    const org = await invoiceOrg();
    for (const name of ['northwind-1', 'northwind-number-twin-1']) {
      const { taskId } = await processed(org, name);
      await reviewAndCorrect(ctx.app, org.reviewer, taskId, docs[name]!.expected);
    }
    const profiles = (await listProfiles(org)).json().items as Array<{ vendorName: string; taxIds: string[] }>;
    expect(profiles.map((p) => p.vendorName).sort()).toEqual([docs['northwind-number-twin-1']!.expected.VendorName.content, 'Northwind Supplies Ltd'].sort());
    for (const profile of profiles) expect(profile.taxIds).toEqual([vendor('northwind').taxId.replace(/[\s.-]/g, '').toUpperCase()]);
  }, 120_000);
});

describe('the extension routes', () => {
  it('page through a workspace of profiles and refuse what is not there', async () => {
    const org = await invoiceOrg();
    const empty = await listProfiles(org);
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json()).toMatchObject({ items: [], totalCount: 0, pageNumber: 1 });
    expectProblem(await listProfiles(org, 2_147_483_000), 404);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/workspaces/${org.workspaceId}?pageSize=501`, headers: org.t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/vendorprofiles/0`, headers: org.t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/workspaces/${org.workspaceId}` }), 401);
  });
});

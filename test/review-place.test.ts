/**
 * Edits with a place: the reviewer API takes where a value is printed (`place`), and a vendor
 * profile learns that place; without one, the occurrence a label of the field announces, never a
 * figure recurring in a discount or item line. Through HTTP (edit, complete, the profile routes),
 * and the next invoice of the same layout read by the model with the profile learned.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TemplateType } from '../src/domain/enums.js';
import { invoicesUniversalModel } from '../src/models/invoice/invoice.js';
import type { Entity } from '../src/domain/entities.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { loadVendorProfiles } from '../src/modules/vendor-profiles/vendor-profile-snapshots.js';
import { EXTERNAL, REVIEW } from '../bench/learning/review-loop.js';
import { documentResult, modelInput, textPdf, writeFixture, type Placed } from './models/document-fixtures.js';
import { useScratchDir } from './engines/fixtures.js';
import { createTestContext, createTestTenant, type TestContext } from './support/context.js';
import { expectProblem } from './support/problem.js';
import { createUser, seedDetectedTask, userHeaders } from './support/review.js';

let ctx: TestContext;
const scratch = useScratchDir();

beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx?.close();
});

/** An invoice whose subtotal's figure also stands in a discount line above it (the discount's base). */
function invoicePage(n: { id: string; base: string; discount: string; subtotal: string; tax: string; total: string }): Placed[] {
  return [
    { text: 'Atelier Lumière SARL', x: 50, y: 50, size: 16 },
    { text: '12 rue des Arts, 69002 Lyon', x: 50, y: 70 },
    { text: 'TVA intracom. FR40123456824', x: 50, y: 84 },
    { text: `Facture n° ${n.id}`, x: 330, y: 130 },
    { text: 'Date : 03/03/2026', x: 330, y: 146 },
    { text: `Remise 5,00% sur ${n.base} EUR`, x: 50, y: 300 },
    { text: `-${n.discount} EUR`, x: 450, y: 300 },
    { text: 'Sous-total HT', x: 300, y: 360 },
    { text: `${n.subtotal} EUR`, x: 450, y: 360 },
    { text: 'TVA 20 %', x: 300, y: 376 },
    { text: `${n.tax} EUR`, x: 450, y: 376 },
    { text: 'Total TTC', x: 300, y: 392 },
    { text: `${n.total} EUR`, x: 450, y: 392 },
  ];
}

const FIRST = { id: 'F-2026-0101', base: '100,00', discount: '5,00', subtotal: '100,00', tax: '20,00', total: '120,00' };

async function detected(name: string, page: Placed[]) {
  const pdf = Buffer.from(await textPdf([page]));
  const file = await writeFixture(scratch.file(`${name}.pdf`), pdf);
  return { pdf, chunks: documentResult(await invoicesUniversalModel(await modelInput(file, 'pdf', [1]))).chunks };
}

const SECOND = { id: 'F-2026-0102', base: '80,00', discount: '4,00', subtotal: '200,00', tax: '40,00', total: '240,00' };

/** The first invoice as the model read it, but with its subtotal missed (a notDetected slot in its place), as happens on harder layouts. */
async function missedSubtotal() {
  const { pdf, chunks } = await detected('first', invoicePage(FIRST));
  const entities = chunks[0]!.entities.map((e): Entity => (e.type === 'Field' && e.category === 'SubTotal' ? { ...e, keyValues: [], notDetected: true, confidence: 0 } : e));
  return { pdf, chunks: [{ ...chunks[0]!, entities }] };
}

/** The box of a word of a line of the page, as the entities give it. */
function wordBox(entities: readonly Entity[], line: string, word: string) {
  const found = entities.find((e) => e.type === 'Line' && e.keyValues[0]!.content === line)!;
  const { left, top, width, height } = found.keyValues.slice(1).find((w) => w.content === word)!.boundingBox;
  return { left: left - 1, top: top - 1, width: width + 2, height: height + 2 };
}

async function reviewOrg() {
  const t = await createTestTenant(ctx);
  const { workspaceId } = await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'Invoices', templateType: TemplateType.InvoicesUniversal });
  const user = await createUser(ctx, t, { roleName: 'Administrator' });
  return { t, workspaceId, reviewer: await userHeaders(ctx.app, user) };
}

/** Reviews the seeded first invoice: fills the subtotal in (with `place`, if given) and completes; the profile's SubTotal field. */
async function reviewSubtotal(place?: unknown) {
  const org = await reviewOrg();
  const detection = await missedSubtotal();
  const task = await seedDetectedTask(ctx, org.t, { source: detection.pdf, mimeType: 'application/pdf', chunks: detection.chunks }, { data: { workspaceId: org.workspaceId } });
  expect((await ctx.app.inject({ method: 'POST', url: `${REVIEW}/tasks/${task.id}/checkout`, headers: org.reviewer })).statusCode).toBe(200);
  const entityIndex = detection.chunks[0]!.entities.findIndex((e) => e.category === 'SubTotal');
  const edit = { entityIndex, keyValueIndex: 0, content: '100,00', ...(place ? { place } : {}) };
  const edited = await ctx.app.inject({ method: 'PATCH', url: `${REVIEW}/tasks/${task.id}/entities`, headers: org.reviewer, payload: { chunks: [{ chunkNumber: 1, edits: [edit] }] } });
  expect(edited.statusCode, edited.body).toBe(200);
  const subtotal = (edited.json().chunks[0].entities as Entity[])[entityIndex]!;
  const completed = await ctx.app.inject({ method: 'POST', url: `${REVIEW}/tasks/${task.id}/complete`, headers: org.reviewer });
  expect(completed.statusCode, completed.body).toBe(200);
  const profiles = await ctx.app.inject({ method: 'GET', url: `${EXTERNAL}/vendorprofiles/workspaces/${org.workspaceId}`, headers: org.t.headers });
  expect(profiles.statusCode, profiles.body).toBe(200);
  const learned = profiles.json().items[0].fields.find((f: { field: string }) => f.field === 'SubTotal');
  return { org, task, subtotal, learned, detection, profileId: profiles.json().items[0].profileId as number };
}

describe('a value printed twice, filled in by the reviewer', () => {
  it('without a place, is learned beside its own label, not in the discount line; the next invoice of the layout reads its subtotal', async () => {
    const { org, learned } = await reviewSubtotal();
    expect(learned).toMatchObject({ value: '100.00', located: true, corrected: true, label: 'Sous-total HT' });

    const profiles = await loadVendorProfiles(ctx.prisma, org.t.tenantId, org.workspaceId);
    const file = await writeFixture(scratch.file('second.pdf'), await textPdf([invoicePage(SECOND)]));
    const chunks = documentResult(await invoicesUniversalModel(await modelInput(file, 'pdf', [1], { vendorProfiles: profiles }))).chunks;
    const subtotal = chunks[0]!.entities.find((e) => e.type === 'Field' && e.category === 'SubTotal' && !e.notDetected)!;
    expect(subtotal.keyValues[0]!.contentNormalized).toBe('200.00');
    expect(subtotal.vendorProfile).toMatchObject({ fromProfile: true });
  });

  it('with a place, is learned where the reviewer pointed, and the edit keeps that place', async () => {
    const detection = await missedSubtotal();
    const box = wordBox(detection.chunks[0]!.entities, 'Remise 5,00% sur 100,00 EUR', '100,00');
    const { learned, subtotal } = await reviewSubtotal({ pageNumber: 1, box });
    expect(learned).toMatchObject({ value: '100.00', located: true, corrected: true });
    expect(learned.label).not.toBe('Sous-total HT');
    expect(subtotal).toMatchObject({ placedByReviewer: true, editedOn: expect.any(String) });
    expect(subtotal.keyValues[0]).toMatchObject({ content: '100,00', pageNumber: 1, boundingBox: { left: box.left, top: box.top, width: box.width, height: box.height } });
    expect(subtotal.keyValues[0]!.spans).toHaveLength(1);
  });

  it('refuses a place that is not a box on the chunk\'s page', async () => {
    const org = await reviewOrg();
    const detection = await missedSubtotal();
    const task = await seedDetectedTask(ctx, org.t, { source: detection.pdf, mimeType: 'application/pdf', chunks: detection.chunks }, { data: { workspaceId: org.workspaceId } });
    await ctx.app.inject({ method: 'POST', url: `${REVIEW}/tasks/${task.id}/checkout`, headers: org.reviewer });
    const entityIndex = detection.chunks[0]!.entities.findIndex((e) => e.category === 'SubTotal');
    const patch = (place: unknown, added = false) =>
      ctx.app.inject({
        method: 'PATCH',
        url: `${REVIEW}/tasks/${task.id}/entities`,
        headers: org.reviewer,
        payload: { chunks: [{ chunkNumber: 1, ...(added ? { addedFields: [{ category: 'IBAN', content: 'FR76 3000 6000 0112 3456 7890 189', place }] } : { edits: [{ entityIndex, content: '100,00', place }] }) }] },
      });
    const box = { left: 10, top: 10, width: 20, height: 10 };
    expectProblem(await patch({ pageNumber: 2, box }), 400);
    expectProblem(await patch({ pageNumber: 0, box }), 400);
    expectProblem(await patch({ pageNumber: 1, box: { ...box, width: 0 } }), 400);
    expectProblem(await patch({ pageNumber: 1, box: { ...box, left: -1 } }), 400);
    expectProblem(await patch({ pageNumber: 1 }), 400);
    expectProblem(await patch({ pageNumber: 2, box }, true), 400);
    const added = await patch({ pageNumber: 1, box }, true);
    expect(added.statusCode, added.body).toBe(200);
    // The addition fills the IBAN's notDetected slot: one IBAN entity, the reviewer's.
    const ibans = (added.json().chunks[0].entities as Entity[]).filter((e) => e.category === 'IBAN');
    expect(ibans).toHaveLength(1);
    expect(ibans[0]).toMatchObject({ placedByReviewer: true, notDetected: false, addedOn: expect.any(String), keyValues: [{ boundingBox: { left: 10, top: 10 } }] });
  });
});

describe('the profile routes, per field', () => {
  it('show where a value and its label were learned, and forget one field alone', async () => {
    const { org, learned, profileId } = await reviewSubtotal();
    // The subtotal's column on the right, in the middle of the text frame; its label to its left.
    expect(learned.page).toBe(1);
    expect(learned.region.left).toBeGreaterThan(0.5);
    expect(learned.labelRegion.left).toBeLessThan(learned.region.left);
    const url = `${EXTERNAL}/vendorprofiles/${profileId}`;
    const before = (await ctx.app.inject({ method: 'GET', url, headers: org.t.headers })).json();
    expect(before.fields.map((f: { field: string }) => f.field)).toContain('InvoiceId');

    const deleted = await ctx.app.inject({ method: 'DELETE', url: `${url}/fields/SubTotal`, headers: org.t.headers });
    expect(deleted.statusCode, deleted.body).toBe(204);
    const after = (await ctx.app.inject({ method: 'GET', url, headers: org.t.headers })).json();
    expect(after.fields.map((f: { field: string }) => f.field).sort()).toEqual(before.fields.map((f: { field: string }) => f.field).filter((f: string) => f !== 'SubTotal').sort());
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${url}/fields/SubTotal`, headers: org.t.headers }), 404);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${url}/fields/Nonsense`, headers: org.t.headers }), 400);
    expectProblem(await ctx.app.inject({ method: 'DELETE', url: `${EXTERNAL}/vendorprofiles/2147483000/fields/SubTotal`, headers: org.t.headers }), 404);
  });
});

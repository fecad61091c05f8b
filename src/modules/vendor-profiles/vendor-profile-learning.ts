/**
 * Learning from a completed review (vendor profiles, an extension beside the spec): the reviewed result of an invoice or receipt task
 * (its stored chunks: the lines of each page and the typed fields as the reviewer left them)
 * becomes evidence in the profile of its vendor, in the task's workspace of its organization.
 * Runs in the completion's transaction, so the review and what it taught commit together.
 */
import type { Db } from '../../db/prisma.js';
import { TemplateType } from '../../domain/enums.js';
import type { Prisma } from '../../generated/prisma/client.js';
import type { Box } from '../../models/page/text/geometry.js';
import { INVOICE_FIELDS, type InvoiceField } from '../../models/fields/invoice-field-names.js';
import { fingerprintSimilarity, type FieldEvidence, type ProfileFields } from '../../models/vendor-profiles/vendor-profile.js';
import { impossibleFields } from '../../models/fields/impossible-values.js';
import { learnField, learnIdentity, mergeEvidence, reviewedValue, type LearnedIdentity, type ReviewedField, type ReviewedPage } from '../../models/vendor-profiles/vendor-profile-learn.js';
import type { ProfileLine } from '../../models/vendor-profiles/vendor-profile-text.js';
import { vendorProfileSource, type Entity } from '../../domain/entities.js';
import {
  chunksWithFields,
  countChunks,
  findWorkspaceTemplate,
  insertProfile,
  lockWorkspaceLearning,
  profilesOfVendor,
  updateProfile,
  type VendorProfileRow,
} from './vendor-profiles.repository.js';
import { storedFields } from './vendor-profile-snapshots.js';

/** The workspaces whose models read fields a vendor prints: the ones that learn. */
export const LEARNING_TEMPLATES: ReadonlySet<number> = new Set([TemplateType.InvoicesUniversal, TemplateType.InvoicesPortugal, TemplateType.Receipts]);

/** Pages of a document a review learns from: fields sit on the first pages and the last; a long document's others are not read. */
const MAX_LEARNED_PAGES = 20;
/** Tax numbers and IBANs a profile keeps (a vendor changing banks keeps its old one for a while). */
const MAX_NUMBERS = 5;

export interface ReviewedTask {
  tenantId: number;
  workspaceId: number;
  taskId: number;
  restartCount: number;
}

const FIELD_NAMES: ReadonlySet<string> = new Set(INVOICE_FIELDS);

const boxOf = (kv: { boundingBox: { left: number; top: number; width: number; height: number } }): Box => ({
  left: kv.boundingBox.left,
  top: kv.boundingBox.top,
  width: kv.boundingBox.width,
  height: kv.boundingBox.height,
});

/** A stored Line entity as a profile line: its text and box, its words after it. */
function lineOf(entity: Entity): ProfileLine | undefined {
  const [line, ...words] = entity.keyValues;
  if (!line || !line.spans[0]) return undefined;
  return {
    text: line.content,
    box: boxOf(line),
    spans: line.spans,
    words: words.filter((w) => w.spans[0]).map((w) => ({ text: w.content, box: boxOf(w), span: w.spans[0]!, confidence: w.confidence })),
  };
}

/** The pages' lines and the typed fields a reviewed result holds (expected fields left undetected say nothing). */
export function reviewedDocument(chunks: ReadonlyArray<{ chunkNumber: number; entities: unknown }>): { pages: ReviewedPage[]; fields: ReviewedField[] } {
  const pages: ReviewedPage[] = [];
  const fields: ReviewedField[] = [];
  for (const chunk of chunks) {
    if (!Array.isArray(chunk.entities)) continue;
    const entities = chunk.entities as Entity[];
    const lines = entities.filter((e) => e?.type === 'Line' && Array.isArray(e.keyValues)).flatMap((e) => lineOf(e) ?? []);
    // Item tables: a value recurring in an item row (a discount's base, a service period) is not the field's.
    const itemAreas = entities.filter((e) => e?.type === 'Table' && e.category === 'LineItems' && e.table?.boundingBox).map((e) => boxOf(e.table!));
    pages.push({ chunk: chunk.chunkNumber, lines, itemAreas });
    for (const entity of entities) {
      if (entity?.type !== 'Field' || !FIELD_NAMES.has(entity.category) || fields.some((f) => f.field === entity.category)) continue;
      const value = entity.keyValues?.[0];
      if (!value || typeof value.content !== 'string') continue;
      // A field the model missed teaches only once the reviewer filled it in.
      if (entity.notDetected && (!entity.editedOn || !value.content.trim())) continue;
      const source = vendorProfileSource.safeParse(entity.vendorProfile);
      fields.push({
        field: entity.category as InvoiceField,
        chunk: chunk.chunkNumber,
        content: value.content,
        contentNormalized: value.contentNormalized,
        // Edited, filled in or added by the reviewer: a correction of what the service gave.
        corrected: Boolean(entity.editedOn) || Boolean(entity.addedOn),
        spans: value.spans ?? [],
        box: value.boundingBox ? boxOf(value) : null,
        placed: entity.placedByReviewer === true,
        ...(source.success ? { source: source.data } : {}),
      });
    }
  }
  return { pages, fields };
}

/**
 * The reviewed document without the values a reviewer left untouched that cannot be right (a
 * customer tax id that is the seller's, a date in 1970, amounts that do not add up): leaving a
 * value alone confirms it only when it could be true; a value the reviewer typed is theirs.
 */
export function confirmable<T extends { fields: ReviewedField[] }>(document: T, now: Date): T {
  const impossible = impossibleFields(Object.fromEntries(document.fields.map((f) => [f.field, reviewedValue(f)])), now);
  return { ...document, fields: document.fields.filter((f) => f.corrected || !impossible.has(f.field)) };
}

/**
 * Records what the completed review of an invoice or receipt task confirmed and corrected in the
 * profile of its vendor: the one its document was read with, unless the reviewer's corrections
 * show another vendor; else the one with its tax number, IBAN or name; else a new one.
 */
export async function learnFromReview(tx: Db, task: ReviewedTask, now: Date): Promise<void> {
  const workspace = await findWorkspaceTemplate(tx, task.tenantId, task.workspaceId);
  if (!workspace || !LEARNING_TEMPLATES.has(workspace.templateType)) return;
  const chunks = await chunksWithFields(tx, task.tenantId, task.taskId, task.restartCount, MAX_LEARNED_PAGES);
  const { pages, fields } = confirmable(reviewedDocument(chunks), now);
  if (fields.length === 0) return;
  const identity = learnIdentity(pages, fields);
  if (!identity.nameKey && identity.taxIds.length === 0 && identity.ibans.length === 0) return;

  await lockWorkspaceLearning(tx, task.workspaceId);
  const usedIds = [...new Set(fields.flatMap((f) => (f.source ? [f.source.profileId] : [])))];
  const known = await profilesOfVendor(tx, task.tenantId, task.workspaceId, { ...identity, ids: usedIds });
  const used = known.find((p) => usedIds.includes(p.id));
  const vendor = profileOfIdentity(known, identity) ?? (used && !contradicts(used, identity) ? used : undefined);
  // The document was read with another vendor's profile: that match was wrong, and its weight falls.
  if (used && used !== vendor) await penalize(tx, used);

  const lastChunk = await countChunks(tx, task.tenantId, task.taskId, task.restartCount);
  const previous = vendor ? storedFields(vendor.fields) : {};
  const next: ProfileFields = { ...previous };
  const served = (f: ReviewedField) => vendor !== undefined && f.source?.fromProfile === true && f.source.profileId === vendor.id;
  for (const field of fields) {
    const learned = learnField(pages, field, { taskId: task.taskId, learnedOn: now, lastChunk });
    if (learned) next[field.field] = mergeEvidence(field.field, previous[field.field], learned, served(field));
  }
  const data = {
    vendorName: identity.vendorName ?? vendor?.vendorName ?? null,
    nameKey: identity.nameKey ?? vendor?.nameKey ?? null,
    taxIds: latestFirst(identity.taxIds, vendor?.taxIds),
    ibans: latestFirst(identity.ibans, vendor?.ibans),
    fingerprint: identity.fingerprint.length ? identity.fingerprint : (vendor?.fingerprint ?? []),
    fields: next as Prisma.InputJsonValue,
    weight: meanWeight(next),
    lastTaskId: task.taskId,
  };
  const correctedOwnValue = fields.some((f) => f.corrected && served(f));
  if (vendor) {
    await updateProfile(tx, task.tenantId, vendor.id, {
      ...data,
      reviewCount: { increment: 1 },
      ...(correctedOwnValue ? { correctedReviewCount: { increment: 1 } } : {}),
    });
  } else {
    await insertProfile(tx, { ...data, tenantId: task.tenantId, workspaceId: task.workspaceId, reviewCount: 1 });
  }
}

/** Header fingerprints this alike are one letterhead: the same vendor, whatever name a reviewer typed. */
const SAME_LETTERHEAD = 0.5;

/**
 * The known profile of the reviewed vendor: the one with its tax number, else its IBAN, and its
 * name (or its letterhead, when the name was typed otherwise); else the one with its name. Two
 * sellers that print one tax number under different names and letterheads (a group's companies,
 * sample documents) keep a profile each.
 */
function profileOfIdentity(known: readonly VendorProfileRow[], identity: LearnedIdentity): VendorProfileRow | undefined {
  const sameVendor = (p: VendorProfileRow) => !namedOtherwise(p, identity);
  return (
    known.find((p) => p.taxIds.some((id) => identity.taxIds.includes(id)) && sameVendor(p)) ??
    known.find((p) => p.ibans.some((iban) => identity.ibans.includes(iban)) && sameVendor(p)) ??
    known.find((p) => identity.nameKey !== null && p.nameKey === identity.nameKey)
  );
}

/** Another name than the profile's, on another letterhead. */
function namedOtherwise(profile: VendorProfileRow, identity: LearnedIdentity): boolean {
  if (identity.nameKey === null || profile.nameKey === null || identity.nameKey === profile.nameKey) return false;
  return fingerprintSimilarity(profile.fingerprint, identity.fingerprint) < SAME_LETTERHEAD;
}

/** The reviewed vendor is not the profile's: another tax number, or another name and letterhead, or another name and no shared number. */
function contradicts(profile: VendorProfileRow, identity: LearnedIdentity): boolean {
  if (identity.taxIds.length && profile.taxIds.length && !profile.taxIds.some((id) => identity.taxIds.includes(id))) return true;
  if (namedOtherwise(profile, identity)) return true;
  const sharesNumber = profile.ibans.some((iban) => identity.ibans.includes(iban)) || profile.taxIds.some((id) => identity.taxIds.includes(id));
  return identity.nameKey !== null && profile.nameKey !== null && identity.nameKey !== profile.nameKey && !sharesNumber;
}

/** A profile a document was wrongly matched to: each of its fields weighs half as much. */
async function penalize(tx: Db, profile: VendorProfileRow): Promise<void> {
  const fields = storedFields(profile.fields);
  for (const evidence of Object.values(fields) as FieldEvidence[]) evidence.weight = Math.round(evidence.weight * 500) / 1000;
  await updateProfile(tx, profile.tenantId, profile.id, { fields: fields as Prisma.InputJsonValue, weight: meanWeight(fields), correctedReviewCount: { increment: 1 } });
}

function latestFirst(latest: readonly string[], earlier: readonly string[] = []): string[] {
  return [...new Set([...latest, ...earlier])].slice(0, MAX_NUMBERS);
}

/** A profile's weight: the mean of its fields' (1 with none). */
export function meanWeight(fields: ProfileFields): number {
  const weights = (Object.values(fields) as FieldEvidence[]).map((f) => f.weight);
  return weights.length ? Math.round((weights.reduce((a, b) => a + b, 0) / weights.length) * 1000) / 1000 : 1;
}

import type { AppDeps } from '../../app-deps.js';
import { toPage, type Page } from '../../http/list-query.js';
import { NotFoundError } from '../../http/problem.js';
import type { InvoiceField } from '../../models/fields/invoice-field-names.js';
import type { FieldEvidence } from '../../models/vendor-profiles/vendor-profile.js';
import { findWorkspace } from '../workspaces/workspaces.repository.js';
import { storedFields } from './vendor-profile-snapshots.js';
import { inTransaction } from '../../db/prisma.js';
import type { Prisma } from '../../generated/prisma/client.js';
import { meanWeight } from './vendor-profile-learning.js';
import { deleteProfile, findProfile, listProfilePage, lockWorkspaceLearning, updateProfile, type VendorProfileRow } from './vendor-profiles.repository.js';
import type { ProfileListQuery, VendorProfileFieldResponse, VendorProfileResponse } from './vendor-profiles.schemas.js';

type Deps = Pick<AppDeps, 'prisma'>;

function formatOf(evidence: FieldEvidence): string | null {
  if (evidence.shape) return evidence.shape;
  if (evidence.monthFirst !== undefined) return evidence.monthFirst ? 'month-first' : 'day-first';
  return null;
}

function fieldOf(field: InvoiceField, evidence: FieldEvidence): VendorProfileFieldResponse {
  return {
    field,
    value: evidence.value,
    label: evidence.label ? evidence.label.text.replace(/\s*:\s*$/, '') : null,
    place: evidence.label?.place ?? null,
    located: evidence.region !== undefined,
    page: evidence.chunk,
    region: evidence.region ?? null,
    labelRegion: evidence.label?.region ?? null,
    format: formatOf(evidence),
    corrected: evidence.corrected,
    confirmations: evidence.confirmations,
    corrections: evidence.corrections,
    weight: evidence.weight,
    learnedFromTaskId: evidence.taskId,
    learnedOn: evidence.learnedOn,
  };
}

/** The public shape of a profile: what it learned per field, never the page's other text (the fingerprint is hashes and stays inside). */
export function profileResponse(row: VendorProfileRow): VendorProfileResponse {
  const fields = Object.entries(storedFields(row.fields)) as Array<[InvoiceField, FieldEvidence]>;
  return {
    profileId: row.id,
    workspaceId: row.workspaceId,
    vendorName: row.vendorName,
    taxIds: row.taxIds,
    ibans: row.ibans,
    reviewCount: row.reviewCount,
    correctedReviewCount: row.correctedReviewCount,
    weight: row.weight,
    lastTaskId: row.lastTaskId,
    fields: fields.map(([field, evidence]) => fieldOf(field, evidence)),
    createdOn: row.createdAt.toISOString(),
    updatedOn: row.updatedAt.toISOString(),
  };
}

/** A workspace's vendor profiles, the most recently refined first. */
export async function listVendorProfiles(deps: Deps, tenantId: number, workspaceId: number, query: ProfileListQuery): Promise<Page<VendorProfileResponse>> {
  if (!(await findWorkspace(deps.prisma, tenantId, workspaceId))) throw new NotFoundError(`Workspace ${workspaceId} was not found`);
  const { items, total } = await listProfilePage(deps.prisma, tenantId, workspaceId, query);
  return toPage(items.map(profileResponse), total, query.pageNumber, query.pageSize);
}

export async function getVendorProfile(deps: Deps, tenantId: number, profileId: number): Promise<VendorProfileResponse> {
  const row = await findProfile(deps.prisma, tenantId, profileId);
  if (!row) throw new NotFoundError(`Vendor profile ${profileId} was not found`);
  return profileResponse(row);
}

/** Forgets a vendor: its next document is read by the general model alone, and its next review starts a new profile. */
export async function deleteVendorProfile(deps: Deps, tenantId: number, profileId: number): Promise<void> {
  if (!(await deleteProfile(deps.prisma, tenantId, profileId))) throw new NotFoundError(`Vendor profile ${profileId} was not found`);
}

/**
 * Forgets one field of a vendor's profile (a place learned wrong): that field is read by the
 * general model until a review teaches it again; the rest of the profile stays. Under the
 * workspace's learning lock, so a review completing meanwhile is not lost.
 */
export async function deleteVendorProfileField(deps: Deps, tenantId: number, profileId: number, field: InvoiceField): Promise<void> {
  await inTransaction(deps.prisma, async (tx) => {
    const found = await findProfile(tx, tenantId, profileId);
    if (!found) throw new NotFoundError(`Vendor profile ${profileId} was not found`);
    await lockWorkspaceLearning(tx, found.workspaceId);
    const row = await findProfile(tx, tenantId, profileId);
    const fields = row ? storedFields(row.fields) : {};
    if (!row || !fields[field]) throw new NotFoundError(`Vendor profile ${profileId} has no field ${field}`);
    delete fields[field];
    await updateProfile(tx, tenantId, profileId, { fields: fields as Prisma.InputJsonValue, weight: meanWeight(fields) });
  });
}

import type { Db } from '../../db/prisma.js';
import type { InvoiceField } from '../../models/fields/invoice-field-names.js';
import type { ProfileFields, VendorProfileSnapshot } from '../../models/vendor-profiles/vendor-profile.js';
import { invoiceFieldName, storedFieldEvidence } from './vendor-profiles.schemas.js';
import { recentProfiles, type VendorProfileRow } from './vendor-profiles.repository.js';

/**
 * Profiles a model gets with a task: the workspace's most recently refined ones. A workspace with
 * more vendors than this reads the others with the general model alone (README, limits).
 */
export const MAX_PROFILES_PER_TASK = 500;

/** The stored evidence, field by field; a field whose JSON no longer fits (another version wrote it) is left out. */
export function storedFields(json: unknown): ProfileFields {
  const fields: ProfileFields = {};
  if (!json || typeof json !== 'object' || Array.isArray(json)) return fields;
  for (const [name, value] of Object.entries(json)) {
    const field = invoiceFieldName.safeParse(name);
    const evidence = storedFieldEvidence.safeParse(value);
    if (field.success && evidence.success) fields[field.data as InvoiceField] = evidence.data;
  }
  return fields;
}

export function snapshotOf(row: VendorProfileRow): VendorProfileSnapshot {
  return {
    id: row.id,
    vendorName: row.vendorName,
    nameKey: row.nameKey,
    taxIds: row.taxIds,
    ibans: row.ibans,
    fingerprint: row.fingerprint,
    fields: storedFields(row.fields),
    weight: row.weight,
  };
}

/** The detect stage's load: the task's workspace's profiles, as the models read them (always the current ones: a reprocess reads them again). */
export async function loadVendorProfiles(db: Db, tenantId: number, workspaceId: number): Promise<VendorProfileSnapshot[]> {
  return (await recentProfiles(db, tenantId, workspaceId, MAX_PROFILES_PER_TASK)).map(snapshotOf);
}

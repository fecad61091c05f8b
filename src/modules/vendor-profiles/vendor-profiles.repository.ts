import type { Db } from '../../db/prisma.js';
import { Prisma } from '../../db/prisma.js';
import { storable } from '../../db/storable.js';
import { expandEntities } from '../../domain/stored-entities.js';

export type VendorProfileRow = Prisma.VendorProfileGetPayload<object>;

/**
 * The profiles the detect stage hands a model: the workspace's most recently refined ones,
 * bounded (each crosses to the engine thread with the task), by the (tenantId, workspaceId,
 * updatedAt) index.
 */
export function recentProfiles(db: Db, tenantId: number, workspaceId: number, limit: number) {
  return db.vendorProfile.findMany({ where: { tenantId, workspaceId }, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], take: limit });
}

/**
 * The workspace's profiles of a vendor, by any of its identities: a tax number or an IBAN (GIN
 * indexes on the arrays), its name key, or the ids of the profiles its document was read with.
 */
export function profilesOfVendor(db: Db, tenantId: number, workspaceId: number, identity: { taxIds: string[]; ibans: string[]; nameKey: string | null; ids: number[] }) {
  const or: Prisma.VendorProfileWhereInput[] = [];
  if (identity.taxIds.length) or.push({ taxIds: { hasSome: identity.taxIds } });
  if (identity.ibans.length) or.push({ ibans: { hasSome: identity.ibans } });
  if (identity.nameKey) or.push({ nameKey: identity.nameKey });
  if (identity.ids.length) or.push({ id: { in: identity.ids } });
  if (or.length === 0) return Promise.resolve([] as VendorProfileRow[]);
  return db.vendorProfile.findMany({ where: { tenantId, workspaceId, OR: or }, orderBy: { updatedAt: 'desc' } });
}

/** The workspace's template, which decides whether its reviews teach vendor profiles. */
export function findWorkspaceTemplate(db: Db, tenantId: number, workspaceId: number) {
  return db.workspace.findFirst({ where: { id: workspaceId, tenantId }, select: { templateType: true } });
}

/**
 * Learning of one workspace takes turns until its transaction ends: two reviews of a new vendor
 * completed at once make one profile, not two.
 */
export async function lockWorkspaceLearning(tx: Db, workspaceId: number): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${VENDOR_PROFILE_LOCK_CLASS}::int, ${workspaceId}::int)`;
}

/** The first key of the two-key advisory locks of vendor-profile learning (the second is the workspace). */
const VENDOR_PROFILE_LOCK_CLASS = 160_001;

export function insertProfile(db: Db, data: Prisma.VendorProfileUncheckedCreateInput) {
  return db.vendorProfile.create({ data: storable(data) });
}

export function updateProfile(db: Db, tenantId: number, id: number, data: Prisma.VendorProfileUncheckedUpdateManyInput) {
  return db.vendorProfile.updateMany({ where: { tenantId, id }, data: storable(data) });
}

/**
 * The chunks of a task's run that hold typed fields (filtered in Postgres, so a long document's
 * other pages are never read), in page order, at most `limit`.
 */
export async function chunksWithFields(db: Db, tenantId: number, taskId: number, restartCount: number, limit: number) {
  // An entity's type is kept as it is in every stored form (domain/stored-entities.ts), so the filter reads either.
  const rows = await db.$queryRaw<Array<{ chunkNumber: number; entities: unknown }>>`
    SELECT "chunkNumber", entities FROM "DocumentChunk"
     WHERE "taskId" = ${taskId} AND "restartCount" = ${restartCount} AND entities @> '[{"type":"Field"}]'::jsonb
       AND EXISTS (SELECT FROM "Task" t WHERE t.id = ${taskId} AND t."tenantId" = ${tenantId})
     ORDER BY "chunkNumber" LIMIT ${limit}`;
  return rows.map((row) => ({ chunkNumber: row.chunkNumber, entities: expandEntities(row.entities) }));
}

/** How many chunks the task's run has: the last page is the last chunk. */
export function countChunks(db: Db, tenantId: number, taskId: number, restartCount: number) {
  return db.documentChunk.count({ where: { taskId, task: { tenantId }, restartCount } });
}

export async function listProfilePage(db: Db, tenantId: number, workspaceId: number, page: { pageNumber: number; pageSize: number }) {
  const where = { tenantId, workspaceId };
  const [items, total] = await Promise.all([
    db.vendorProfile.findMany({ where, orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }], skip: (page.pageNumber - 1) * page.pageSize, take: page.pageSize }),
    db.vendorProfile.count({ where }),
  ]);
  return { items, total };
}

export function findProfile(db: Db, tenantId: number, id: number) {
  return db.vendorProfile.findFirst({ where: { tenantId, id } });
}

/** Deletes the organization's profile; false when it has none with this id. */
export async function deleteProfile(db: Db, tenantId: number, id: number): Promise<boolean> {
  const { count } = await db.vendorProfile.deleteMany({ where: { tenantId, id } });
  return count > 0;
}

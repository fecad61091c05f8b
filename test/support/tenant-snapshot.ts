/**
 * Everything an organization owns, as plain comparable data: its rows (tenant, client, workspaces
 * with members and speakers, batches, tasks with chunks, transcripts, speakers and assignments,
 * users with memberships and invitations, uploads, daily counts, vendor profiles), the bytes its uploads hold and
 * whether its stored files exist. Two snapshots around a request show whether it changed anything.
 */
import { uploadFiles } from '../../src/modules/uploads/upload-storage.js';
import type { TestContext } from './context.js';

const byId = { orderBy: { id: 'asc' as const } };

/** Dates as ISO text and BigInts as text, so snapshots compare with toEqual and print readably. */
function plain(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)));
}

/** The bytes of an upload's file (an incomplete upload on S3 has none yet: its parts are not an object). */
async function uploadSize(ctx: TestContext, id: string): Promise<number | null> {
  try {
    return (await uploadFiles(ctx.blobs, ctx.config).stat(id)).size;
  } catch {
    return null;
  }
}

export async function snapshotTenant(ctx: TestContext, tenantId: number): Promise<unknown> {
  const tenant = await ctx.prisma.tenant.findUniqueOrThrow({
    where: { id: tenantId },
    include: {
      client: true,
      workspaces: { ...byId, include: { members: { orderBy: { userId: 'asc' } }, workspaceSpeakers: byId } },
      batches: byId,
      tasks: { ...byId, include: { assignments: { orderBy: { position: 'asc' } }, chunks: byId, transcript: true, speakers: byId } },
      users: { ...byId, include: { memberships: { orderBy: { workspaceId: 'asc' } }, invitations: byId } },
      uploads: byId,
    },
  });
  const vendorProfiles = await ctx.prisma.vendorProfile.findMany({ where: { tenantId }, ...byId });
  const dailyCounts = await ctx.prisma.taskDailyCount.findMany({ where: { tenantId }, orderBy: [{ day: 'asc' }, { workspaceId: 'asc' }, { taskStatus: 'asc' }, { integrationStatus: 'asc' }] });
  const uploadBytes = await Promise.all(tenant.uploads.map(async (u) => [u.id, await uploadSize(ctx, u.id)] as const));
  const storedFiles = await Promise.all(
    tenant.tasks.flatMap((t) => [t.sourceBlobKey, t.redactedBlobKey]).filter((key): key is string => key !== null).map(async (key) => [key, await ctx.blobs.exists(key)] as const),
  );
  return plain({ tenant, vendorProfiles, dailyCounts, uploadBytes: Object.fromEntries(uploadBytes), storedFiles: Object.fromEntries(storedFiles) });
}

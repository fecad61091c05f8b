import type { Db, Prisma } from '../../db/prisma.js';

export function listWorkspaces(db: Db, tenantId: number) {
  return db.workspace.findMany({ where: { tenantId }, orderBy: { id: 'asc' } });
}

export function findWorkspace(db: Db, tenantId: number, workspaceId: number) {
  return db.workspace.findFirst({ where: { tenantId, id: workspaceId } });
}

export function findDefaultWorkspace(db: Db, tenantId: number) {
  return db.workspace.findFirst({ where: { tenantId, isDefault: true } });
}

export function insertWorkspace(db: Db, data: Prisma.WorkspaceUncheckedCreateInput) {
  return db.workspace.create({ data });
}

export function setWorkspaceName(db: Db, tenantId: number, workspaceId: number, name: string) {
  return db.workspace.updateMany({ where: { tenantId, id: workspaceId }, data: { name } });
}

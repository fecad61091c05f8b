import type { Db } from '../../db/prisma.js';
import type { TaskType, TemplateType, WorkspaceType } from '../../domain/enums.js';
import { NotFoundError } from '../../http/problem.js';
import { findDefaultWorkspace, findWorkspace, listWorkspaces } from './workspaces.repository.js';
import type { WorkspaceResponse } from './workspaces.schemas.js';

type WorkspaceRow = NonNullable<Awaited<ReturnType<typeof findWorkspace>>>;

export function toWorkspaceResponse(w: WorkspaceRow): WorkspaceResponse {
  return {
    workspaceId: w.id,
    tenantId: w.tenantId,
    workspaceName: w.name,
    workspaceDescription: w.description,
    isDefault: w.isDefault,
    taskType: w.taskType as TaskType,
    workspaceType: w.workspaceType as WorkspaceType,
    templateType: w.templateType as TemplateType,
    workspaceTemplateName: w.templateName,
  };
}

export async function currentWorkspaces(db: Db, tenantId: number): Promise<WorkspaceResponse[]> {
  return (await listWorkspaces(db, tenantId)).map(toWorkspaceResponse);
}

/** The workspace named by a request, or the tenant's default one; another tenant's id is "not found". */
export async function resolveWorkspace(db: Db, tenantId: number, workspaceId: number | undefined | null) {
  const workspace =
    workspaceId == null ? await findDefaultWorkspace(db, tenantId) : await findWorkspace(db, tenantId, workspaceId);
  if (!workspace) {
    throw new NotFoundError(
      workspaceId == null ? 'The organization has no default workspace' : `Workspace ${workspaceId} was not found`,
    );
  }
  return workspace;
}

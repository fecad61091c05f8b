import { z } from 'zod';
import { TaskType, TemplateType, WorkspaceType } from '../../domain/enums.js';
import { intEnum } from '../../http/schemas.js';

export const workspaceResponse = z
  .object({
    workspaceId: z.number().int(),
    tenantId: z.number().int().describe('The organization'),
    workspaceName: z.string(),
    workspaceDescription: z.string().nullable(),
    isDefault: z.boolean().describe("true for the organization's default workspace"),
    taskType: intEnum('TaskType', TaskType),
    workspaceType: intEnum('WorkspaceType', WorkspaceType),
    templateType: intEnum('TemplateType', TemplateType),
    workspaceTemplateName: z.string().nullable().describe('May be null; use templateType as fallback'),
  })
  .meta({ id: 'GetWorkspaceResponse' });

export type WorkspaceResponse = z.infer<typeof workspaceResponse>;

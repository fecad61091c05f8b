import { IntegrationStatus, TaskStatus } from '../../src/domain/enums.js';
import type { PrismaClient } from '../../src/db/prisma.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { takeTaskNumber } from '../../src/modules/tasks/tasks.repository.js';

/**
 * A task row written straight to the database (no pipeline, no job): a PDF statement in ToReview in
 * the organization's default workspace unless `data` says otherwise, numbered as the API numbers tasks.
 */
export async function insertTask(
  prisma: PrismaClient,
  t: { tenantId: number; defaultWorkspaceId: number },
  data: Partial<Prisma.TaskUncheckedCreateInput> = {},
) {
  const workspaceId = data.workspaceId ?? t.defaultWorkspaceId;
  return prisma.task.create({
    data: {
      tenantId: t.tenantId,
      workspaceId,
      taskNumber: await takeTaskNumber(prisma, workspaceId),
      displayName: 'Statement',
      taskStatus: TaskStatus.ToReview,
      integrationStatus: IntegrationStatus.Never,
      request: { context: { url: 'http://example.com/statement.pdf' } },
      ...data,
    },
  });
}

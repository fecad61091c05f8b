import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { EXTERNAL_PREFIX } from '../../src/app.js';
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
      taskNumber: await takeTaskNumber(prisma, t.tenantId, workspaceId),
      displayName: 'Statement',
      taskStatus: TaskStatus.ToReview,
      integrationStatus: IntegrationStatus.Never,
      request: { context: { url: 'http://example.com/statement.pdf' } },
      ...data,
    },
  });
}

/** A recorded support call in ToReview, inserted like insertTask (for transcript workspaces). */
export function insertCall(
  prisma: PrismaClient,
  t: { tenantId: number; defaultWorkspaceId: number },
  data: Partial<Prisma.TaskUncheckedCreateInput> = {},
) {
  return insertTask(prisma, t, { displayName: 'Support call', request: { context: { url: 'http://example.com/call.mp3' } }, ...data });
}

/**
 * POST sdtask/process for the file at `url` (200 expected): the new task's id. `body` adds fields of
 * the request; its `context` is merged over { url }.
 */
export async function createTask(
  app: Pick<FastifyInstance, 'inject'>,
  t: { headers: Record<string, string> },
  url: string,
  body: Record<string, unknown> = {},
): Promise<number> {
  const { context, ...rest } = body as { context?: Record<string, unknown> };
  const res = await app.inject({ method: 'POST', url: `${EXTERNAL_PREFIX}/sdtask/process`, headers: t.headers, payload: { ...rest, context: { url, ...context } } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().taskId as number;
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IntegrationStatus, TaskStatus } from '../src/domain/enums.js';
import { TASK_SORT_FIELDS } from '../src/modules/tasks/tasks.schemas.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';

/**
 * The paginated list reads a page's ids first (one ordered scan per status when several are
 * asked for, merged), then their rows: whatever the filter, sort and page size, the pages put
 * together are exactly the matching tasks in the documented order.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => {
  await ctx.close();
});

interface Row {
  id: number;
  taskNumber: number;
  displayName: string;
  createdAt: Date;
  taskStatus: number;
  integrationStatus: number;
  preProcessingStartedOn: Date | null;
  totalPages: number;
}

const day = (d: number, hour = 12) => new Date(Date.UTC(2025, 0, d, hour));

/** Twelve tasks with ties in every sortable column and some never pre-processed (null start). */
async function seed(t: TestTenant): Promise<Row[]> {
  const statuses = [TaskStatus.ToReview, TaskStatus.QueuedForPreProcessing, TaskStatus.Processed, TaskStatus.ToReview];
  const rows: Row[] = [];
  for (let i = 0; i < 12; i += 1) {
    const taskStatus = statuses[i % statuses.length]!;
    const task = await ctx.prisma.task.create({
      data: {
        tenantId: t.tenantId,
        workspaceId: t.defaultWorkspaceId,
        taskNumber: 12 - i,
        displayName: ['b', 'a', 'c'][i % 3]!,
        createdAt: day(1 + (i % 5)),
        taskStatus,
        integrationStatus: i % 4 === 2 ? IntegrationStatus.Successful : IntegrationStatus.Never,
        preProcessingStartedOn: taskStatus === TaskStatus.QueuedForPreProcessing ? null : day(10 + (i % 2)),
        totalPages: i % 3,
        request: {},
      },
    });
    rows.push(task);
  }
  return rows;
}

const sortKey: Record<(typeof TASK_SORT_FIELDS)[number], (r: Row) => number | string> = {
  createdOn: (r) => r.createdAt.getTime(),
  taskId: (r) => r.id,
  taskNumber: (r) => r.taskNumber,
  displayName: (r) => r.displayName,
  taskStatus: (r) => r.taskStatus,
  integrationStatus: (r) => r.integrationStatus,
  // Postgres' order: nulls after every value ascending, before them descending.
  preProcessingStartedOn: (r) => r.preProcessingStartedOn?.getTime() ?? Number.POSITIVE_INFINITY,
  totalPages: (r) => r.totalPages,
};

function expectedOrder(rows: Row[], field: (typeof TASK_SORT_FIELDS)[number], descending: boolean): number[] {
  const key = sortKey[field];
  const sign = descending ? -1 : 1;
  return [...rows]
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      return sign * (x < y ? -1 : x > y ? 1 : a.id - b.id);
    })
    .map((r) => r.id);
}

describe('GET sdtask/statuslistpaginated: pages', () => {
  it('puts the pages of every filter and sort together as the matching tasks in order, for one, several or repeated statuses', async () => {
    const t = await createTestTenant(ctx);
    const rows = await seed(t);
    const filters: Array<{ query: string; matches: (r: Row) => boolean }> = [
      { query: '', matches: () => true },
      { query: `&taskStatus=${TaskStatus.ToReview}`, matches: (r) => r.taskStatus === TaskStatus.ToReview },
      {
        query: `&taskStatus=${TaskStatus.ToReview}&taskStatus=${TaskStatus.QueuedForPreProcessing}&taskStatus=${TaskStatus.ToReview}`,
        matches: (r) => r.taskStatus === TaskStatus.ToReview || r.taskStatus === TaskStatus.QueuedForPreProcessing,
      },
      {
        query: `&taskStatus=${TaskStatus.Processed}&taskStatus=${TaskStatus.QueuedForPreProcessing}&integrationStatus=${IntegrationStatus.Never}&endDate=2025-01-05`,
        matches: (r) =>
          (r.taskStatus === TaskStatus.Processed || r.taskStatus === TaskStatus.QueuedForPreProcessing) &&
          r.integrationStatus === IntegrationStatus.Never &&
          r.createdAt < day(5, 0),
      },
    ];
    for (const filter of filters) {
      const matching = rows.filter(filter.matches);
      for (const field of TASK_SORT_FIELDS) {
        for (const descending of [false, true]) {
          const sort = `${descending ? '-' : ''}${field}`;
          const paged: number[] = [];
          for (let page = 1; page <= Math.ceil(matching.length / 3) + 1; page += 1) {
            const res = await ctx.app.inject({
              method: 'GET',
              url: `/api/v1.0/external/sdtask/statuslistpaginated?startDate=2025-01-01&pageSize=3&pageNumber=${page}&sort=${sort}${filter.query}`,
              headers: t.headers,
            });
            expect(res.statusCode, res.body).toBe(200);
            expect(res.json().totalCount, `${sort}${filter.query}`).toBe(matching.length);
            paged.push(...res.json().items.map((item: { taskId: number }) => item.taskId));
          }
          expect(paged, `${sort}${filter.query}`).toEqual(expectedOrder(matching, field, descending));
        }
      }
    }
  });
});

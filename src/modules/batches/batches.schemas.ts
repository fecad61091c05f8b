import { z } from 'zod';
import { paginationQuery, pageSchema, sortParam, utcDateTime } from '../../http/list-query.js';
import { bodyRowId, repeatable, rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';

export const createBatchBody = z
  .object({
    displayName: z.string().trim().min(1).max(256),
    description: z.string().max(2000).optional(),
    workspaceId: bodyRowId.optional().describe('Default workspace if omitted'),
  })
  .meta({ id: 'CreateBatchRequest' });

export const batchResponse = z
  .object({
    batchId: z.number().int(),
    workspaceId: z.number().int(),
    displayName: z.string(),
    description: z.string().nullable(),
    createdOn: isoDateTime,
    totalTasks: z.number().int().describe('Tasks in the batch'),
    totalTasksInHistory: z.number().int().describe('Tasks of the batch in history (Processed)'),
  })
  .meta({ id: 'GetBatchResponse' });
export type BatchResponse = z.infer<typeof batchResponse>;

export const batchPage = pageSchema(batchResponse, 'BatchPage');

export const getBatchQuery = z.object({ batchId: rowId });

export const BATCH_SORT_FIELDS = ['createdOn', 'batchId', 'displayName', 'totalTasks'] as const;
export type BatchSortField = (typeof BATCH_SORT_FIELDS)[number];

export const batchPageQuery = z.object({
  startDate: utcDateTime.optional().describe('Batches created at or after'),
  endDate: utcDateTime.optional().describe('Batches created before'),
  workspaceId: repeatable(rowId),
  sort: sortParam(BATCH_SORT_FIELDS, 'createdOn'),
  ...paginationQuery,
});
export type BatchPageQuery = z.infer<typeof batchPageQuery>;

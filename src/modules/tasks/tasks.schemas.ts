import { z } from 'zod';
import { IntegrationStatus, TaskAssignmentOrderType, TaskStatus } from '../../domain/enums.js';
import { PAGE_RANGE_PATTERN } from '../../domain/page-range.js';
import { paginationQuery, pageSchema, sortParam, utcDateTime } from '../../http/list-query.js';
import { bodyRowId, intEnum, repeatable, rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';

export const TRANSCRIPT_LANGUAGES = ['pt-PT', 'en-US', 'fr-FR', 'de-DE', 'es-ES'] as const;

const taskContext = z
  .strictObject({
    url: z.string().trim().min(1).max(4096).describe('Public or SAS URL of the file, or an upload location from /files/'),
    transcriptLanguage: z.enum(TRANSCRIPT_LANGUAGES).optional().describe('Transcription workspaces only'),
    splitTaskInChunks: z.boolean().optional().describe('Split a large file into parts reviewed separately; not in Template workspaces'),
    splitChunkDurationMinutes: z.number().int().positive().optional().describe('Transcription only, with splitTaskInChunks; default 10'),
    splitChunkNumberPages: z.number().int().positive().optional().describe('Not Transcripts/Templates; with splitTaskInChunks'),
    pageRange: z
      .string()
      .optional()
      .refine((r) => r === undefined || r.trim() === '' || PAGE_RANGE_PATTERN.test(r), 'only positive numbers, commas and hyphens (e.g. "1-3,5")')
      .describe('Invoices, Receipts, Layout, ID Documents and Custom workspaces; cannot be combined with splitting'),
  })
  .meta({ id: 'TaskContext' });

export const taskAssignment = z
  .object({
    assignedUsers: z.array(z.email()).min(1).max(20).describe('Reviewer emails; list order is the sequence for Sequential review'),
    order: intEnum('TaskAssignmentOrderType', TaskAssignmentOrderType),
  })
  .meta({ id: 'TaskAssignment' });

const metadata = z
  .record(z.string().min(1).max(128), z.string().max(2048))
  .refine((m) => Object.keys(m).length <= 50, 'at most 50 metadata keys')
  .describe('Textual key-value pairs');

const formValue = z.union([z.string().max(4096), z.number(), z.boolean(), z.null()]);

export const createTaskBody = z
  .object({
    displayName: z.string().trim().min(1).max(256).optional().describe('Random name generated if omitted'),
    description: z.string().max(2000).optional(),
    workspaceId: bodyRowId.optional().describe('Default workspace if omitted'),
    batchId: bodyRowId.optional(),
    externalId: z.string().trim().min(1).max(128).optional().describe('Unique within the organization; 409 on a duplicate'),
    priority: z.number().int().min(1).default(1).describe('1 = low; any value above 1 = high (only two lanes)'),
    context: taskContext,
    taskAssignment: taskAssignment.nullish(),
    customFormValues: z
      .record(z.string().min(1).max(128), z.union([formValue, z.array(formValue).max(100)]))
      .refine((v) => Object.keys(v).length <= 100, 'at most 100 fields')
      .optional()
      .describe('Fields passed to the viewer in advanced edit mode: scalar values or lists of them'),
    useHigherQuality: z.boolean().optional().describe('Document Anonymization workspaces only'),
    metadata: metadata.optional(),
  })
  .meta({ id: 'CreateTaskRequest' });
export type CreateTaskBody = z.infer<typeof createTaskBody>;

const statusFields = {
  taskStatus: intEnum('TaskStatus', TaskStatus),
  taskStatusText: z.string(),
  integrationStatus: intEnum('IntegrationStatus', IntegrationStatus),
  integrationStatusText: z.string(),
};

export const createTaskResponse = z
  .object({
    taskId: z.number().int(),
    displayName: z.string(),
    description: z.string().nullable(),
    externalId: z.string().nullable(),
    totalPages: z.number().int(),
    ...statusFields,
    workspaceId: z.number().int(),
    requestId: z.uuid(),
    batchId: z.number().int().nullable(),
    taskAssignment: taskAssignment.nullable(),
  })
  .meta({ id: 'CreateTaskResponse' });
export type CreateTaskResponse = z.infer<typeof createTaskResponse>;

export const taskStatusResponse = z
  .object({
    taskId: z.number().int(),
    workspaceId: z.number().int(),
    batchId: z.number().int().nullable(),
    taskNumber: z.number().int().nullable(),
    externalId: z.string().nullable(),
    displayName: z.string(),
    description: z.string().nullable(),
    createdOn: isoDateTime,
    ...statusFields,
    externalIntegrationStatus: z.string(),
    totalPages: z.number().int().describe('Documents: pages processed. Audio/video: minutes processed'),
    pagesProcessed: z
      .number()
      .int()
      .nullable()
      .describe(
        'Documents: pages of totalPages read so far while the task is recognized (updated about once a second), totalPages once it is; null for recordings and before recognition starts (an addition to the spec)',
      ),
    restartCount: z.number().int().optional().describe('Present once the task has been reprocessed'),
    preProcessingStartedOn: isoDateTime.nullable(),
    warning: z.boolean().describe('Set when automatic recovery moved the task'),
    failureReason: z
      .string()
      .nullable()
      .describe(
        'Why the task reached a failure status, in words a user can act on (e.g. an engine to install), or what automatic recovery did (with warning); null otherwise (an addition to the spec)',
      ),
  })
  .meta({ id: 'GetTaskStatusResponse' });
export type TaskStatusResponse = z.infer<typeof taskStatusResponse>;

export const taskPage = pageSchema(taskStatusResponse, 'TaskStatusPage');

/** At least one of the two (checked by the service, so both shapes give the same problem). */
export const taskRefQuery = z.object({
  taskId: rowId.optional(),
  externalId: z.string().trim().min(1).max(128).optional(),
});

export const TASK_SORT_FIELDS = [
  'createdOn',
  'taskId',
  'taskNumber',
  'displayName',
  'taskStatus',
  'integrationStatus',
  'preProcessingStartedOn',
  'totalPages',
] as const;
export type TaskSortField = (typeof TASK_SORT_FIELDS)[number];

export const taskListFilters = {
  startDate: utcDateTime.optional().describe('Tasks created at or after'),
  endDate: utcDateTime.optional().describe('Tasks created before'),
  taskStatus: repeatable(z.coerce.number().pipe(intEnum('TaskStatus', TaskStatus))).describe('Repeat for several values'),
  integrationStatus: repeatable(z.coerce.number().pipe(intEnum('IntegrationStatus', IntegrationStatus))),
  workspaceId: repeatable(rowId),
  externalIntegrationStatus: repeatable(z.string().max(32)),
  sort: sortParam(TASK_SORT_FIELDS, 'createdOn'),
};

export const taskListQuery = z.object(taskListFilters);
export type TaskListQuery = z.infer<typeof taskListQuery>;
export const taskPageQuery = z.object({ ...taskListFilters, ...paginationQuery });
export type TaskPageQuery = z.infer<typeof taskPageQuery>;

export const externalIntegrationStatusBody = z
  .object({
    externalIntegrationStatus: z
      .string()
      .max(32)
      .refine((s) => s.trim().length > 0, 'must not be empty or whitespace')
      .describe('Free text, at most 32 characters'),
  })
  .meta({ id: 'ExternalIntegrationStatusRequest' });

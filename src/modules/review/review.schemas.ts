import { z } from 'zod';
import { IntegrationStatus, TaskAssignmentOrderType, TaskStatus, TaskType } from '../../domain/enums.js';
import { pageSchema, paginationQuery } from '../../http/list-query.js';
import { bodyRowId, intEnum, rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';
import { entity } from '../../domain/entities.js';
import { transcriptAnnotation, transcriptItem, transcriptSpeaker } from '../../domain/transcript-entities.js';

/** The reviewer API: an extension beside the external spec, with its own user tokens. */

export const loginBody = z
  .object({
    email: z.email().max(320),
    password: z.string().min(1).max(1024),
    tenantId: bodyRowId.optional().describe('Needed when the email belongs to users of several organizations'),
  })
  .meta({ id: 'ReviewLoginRequest' });
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z
  .object({
    access_token: z.string().describe('Bearer token of the reviewer API; not accepted by the external API'),
    expires_in: z.number().int(),
    token_type: z.literal('Bearer'),
  })
  .meta({ id: 'ReviewLoginResponse' });
export type LoginResponse = z.infer<typeof loginResponse>;

export const taskParams = z.object({ taskId: rowId });
export const pageParams = taskParams.extend({ pageNumber: rowId });
export const reviewListQuery = z.object(paginationQuery);

const checkout = z
  .object({
    userId: z.number().int(),
    userName: z.string(),
    until: isoDateTime,
  })
  .nullable()
  .meta({ id: 'ReviewCheckout', description: 'Who holds the task now and until when; null when nobody does' });

const statusFields = {
  taskStatus: intEnum('TaskStatus', TaskStatus),
  taskStatusText: z.string(),
};

const taskSummaryFields = {
  taskId: z.number().int(),
  workspaceId: z.number().int(),
  displayName: z.string(),
  description: z.string().nullable(),
  taskType: intEnum('TaskType', TaskType),
  ...statusFields,
  totalPages: z.number().int().describe('Documents: pages. Recordings: minutes'),
  pagesProcessed: z.number().int().nullable().describe('Documents: pages of totalPages read by recognition (as in GET sdtask/status); null for recordings'),
  createdOn: isoDateTime,
  assignmentOrder: intEnum('TaskAssignmentOrderType', TaskAssignmentOrderType).nullable(),
  checkout,
};

export const reviewTaskSummary = z.object(taskSummaryFields).meta({ id: 'ReviewTaskSummary' });
export type ReviewTaskSummary = z.infer<typeof reviewTaskSummary>;
export const reviewTaskPage = pageSchema(reviewTaskSummary, 'ReviewTaskPage');

export const reviewChunk = z
  .object({
    chunkNumber: z.number().int(),
    pageNumber: z.number().int(),
    version: z.number().int().describe('Send it back with edits: a chunk saved by someone else meanwhile is a 409'),
    lastModifiedBy: z.number().int().nullable(),
    lastModifiedOn: isoDateTime.nullable(),
    entities: z.array(entity),
  })
  .meta({ id: 'ReviewChunk' });
export type ReviewChunk = z.infer<typeof reviewChunk>;

export const reviewTranscript = z
  .object({
    totalTimeInSeconds: z.number(),
    version: z.number().int().describe('Send it back with edits: a transcript saved by someone else meanwhile is a 409'),
    transcripts: z.array(transcriptItem),
    speakers: z.array(transcriptSpeaker),
    annotations: z.array(transcriptAnnotation),
  })
  .meta({ id: 'ReviewTranscript' });
export type ReviewTranscript = z.infer<typeof reviewTranscript>;

export const reviewTaskDetail = z
  .object({
    ...taskSummaryFields,
    assignments: z.array(z.object({ email: z.string(), reviewed: z.boolean(), reviewedOn: isoDateTime.nullable() })),
    fileUrl: z.string().nullable().describe('Signed, time-limited link to the source file (the audio of a transcript)'),
    pages: z
      .array(
        z.object({
          pageNumber: z.number().int(),
          imageUrl: z.string().describe('The rendered page (PNG); needs the Bearer token'),
          pixelsPerUnit: z.number().describe('Image pixels per geometry unit (points for PDFs, pixels for images)'),
        }),
      )
      .describe('Document tasks: the pages that have chunks'),
    chunks: z.array(reviewChunk),
    transcript: reviewTranscript.nullable(),
  })
  .meta({ id: 'ReviewTaskDetail' });
export type ReviewTaskDetail = z.infer<typeof reviewTaskDetail>;

export const checkoutResponse = z
  .object({ taskId: z.number().int(), ...statusFields, checkout })
  .meta({ id: 'ReviewCheckoutResponse' });
export type CheckoutResponse = z.infer<typeof checkoutResponse>;

export const completeResponse = z
  .object({
    taskId: z.number().int(),
    ...statusFields,
    integrationStatus: intEnum('IntegrationStatus', IntegrationStatus),
    integrationStatusText: z.string(),
    reviewComplete: z.boolean().describe('False while other assigned reviewers still have to review'),
  })
  .meta({ id: 'ReviewCompleteResponse' });
export type CompleteResponse = z.infer<typeof completeResponse>;

const text = z.string().max(20_000);

const coordinate = z.number().finite().min(0).max(1e6);
const extent = z.number().finite().gt(0).max(1e6);

/**
 * Where the reviewer saw the value: the page and the box they pointed at, in the units and origin
 * of the entities' boundingBox, so that a vendor profile learns that place and not another
 * occurrence of the same value.
 */
export const valuePlace = z
  .object({
    pageNumber: z.number().int().min(1).describe("The page of the document; the chunk's own page"),
    box: z
      .object({ left: coordinate, top: coordinate, width: extent, height: extent })
      .strict()
      .describe('Page units as in boundingBox (points for PDFs, pixels for images), top-left origin, y down'),
  })
  .strict()
  .meta({ id: 'ReviewValuePlace', description: 'Where the value is printed, as the reviewer pointed at it' });
export type ValuePlace = z.infer<typeof valuePlace>;

export const keyValueEdit = z
  .object({
    entityIndex: z.number().int().min(0).describe("Position in the chunk's entities"),
    keyValueIndex: z.number().int().min(0).default(0).describe("Position in the entity's keyValues; 0 is what the entity says"),
    content: text.optional(),
    contentNormalized: text.nullable().optional(),
    place: valuePlace.optional().describe('Where the value is printed; the keyValue moves there and vendor profiles learn that place'),
  })
  .refine((e) => e.content !== undefined || e.contentNormalized !== undefined || e.place !== undefined, 'content, contentNormalized or place is required');
export type KeyValueEdit = z.infer<typeof keyValueEdit>;

export const fieldAddition = z.object({
  category: z.string().trim().min(1).max(128).describe('The field, e.g. IBAN or DueDate'),
  content: text.refine((t) => t.trim().length > 0, 'content must not be empty').describe('The value as printed'),
  contentNormalized: text.nullable().optional().describe('Dates yyyy-mm-dd, amounts as plain decimals; omitted: worked out from content'),
  place: valuePlace.optional().describe('Where the value is printed; vendor profiles learn that place'),
});
export type FieldAddition = z.infer<typeof fieldAddition>;

export const cellEdit = z
  .object({
    entityIndex: z.number().int().min(0).describe("Position of the Table entity in the chunk's entities"),
    rowIndex: z.number().int().min(1).describe('Body row, as in tableRows (the header row is 0)'),
    columnIndex: z.number().int().min(0),
    content: text.describe('The cell as printed; empty removes the cell'),
    contentNormalized: text.nullable().optional().describe('Omitted: worked out from content'),
  })
  .meta({ id: 'ReviewCellEdit', description: 'A cell of a table (e.g. the LineItems) as the reviewer corrected or filled it in' });
export type CellEdit = z.infer<typeof cellEdit>;

export const entityEditsBody = z
  .object({
    chunks: z
      .array(
        z.object({
          chunkNumber: bodyRowId,
          version: z.number().int().optional().describe('The version read; omit to overwrite whatever is stored'),
          edits: z.array(keyValueEdit).max(2000).default([]),
          addedFields: z
            .array(fieldAddition)
            .max(100)
            .optional()
            .describe('Typed fields the model did not report at all (e.g. an IBAN), given by the reviewer: they teach the vendor profile too'),
          cellEdits: z.array(cellEdit).max(2000).optional().describe('Cells of tables (the line items) the reviewer corrected or filled in'),
        }).refine((c) => c.edits.length > 0 || (c.addedFields?.length ?? 0) > 0 || (c.cellEdits?.length ?? 0) > 0, 'edits, addedFields or cellEdits is required'),
      )
      .min(1)
      .max(500),
  })
  .meta({ id: 'ReviewEntityEdits' });
export type EntityEditsBody = z.infer<typeof entityEditsBody>;

export const entityEditsResponse = z.object({ chunks: z.array(reviewChunk) }).meta({ id: 'ReviewEntityEditsResponse' });

const seconds = z.number().min(0).max(1e7);

export const transcriptEditsBody = z
  .object({
    version: z.number().int().optional().describe('The version read; omit to overwrite whatever is stored'),
    segments: z
      .array(
        z.object({
          index: z.number().int().min(0).describe('Position in transcripts'),
          displayText: text.optional(),
          speakerId: z.string().min(1).max(128).optional().describe("One of the task's speakers"),
        }),
      )
      .max(10_000)
      .default([]),
    annotations: z
      .array(
        z.object({
          uniqueId: z.string().min(1).max(128).optional().describe('Of the annotation to change; omit to add one'),
          content: text,
          start: seconds,
          end: seconds,
        }),
      )
      .max(1000)
      .default([]),
    removeAnnotations: z.array(z.string().min(1).max(128)).max(1000).default([]).describe('uniqueIds to remove'),
  })
  .meta({ id: 'ReviewTranscriptEdits' });
export type TranscriptEditsBody = z.infer<typeof transcriptEditsBody>;

import { z } from 'zod';
import { TaskStatus } from '../../domain/enums.js';
import { paginationQuery, pageSchema } from '../../http/list-query.js';
import { intEnum, rowId } from '../../http/schemas.js';
import { isoDateTime } from '../../domain/date-time.js';
import { taskStatusResponse } from '../tasks/tasks.schemas.js';

export const WEBHOOK_EVENT_TYPES = [
  'task.status_changed',
  'task.ready_for_review',
  'task.export_completed',
  'task.failed',
  'batch.finished',
  'upload.completed',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const webhookEventType = z.enum(WEBHOOK_EVENT_TYPES).meta({
  id: 'WebhookEventType',
  description:
    'task.status_changed: any change of taskStatus, and task creation (previousTaskStatus null). task.ready_for_review: the task became ToReview. ' +
    'task.export_completed: the review is complete (ExportCompleted), the export can be fetched. task.failed: the task entered a failure status (failureReason says why). ' +
    'batch.finished: no task of the batch is being processed any more (each is ToReview or later, Split, or failed); again if the batch gets busy and finishes again. ' +
    'upload.completed: a TUS upload received its last byte.',
});

/** Webhook URLs: http(s) only; the SSRF guard checks where they point (webhooks.service.ts). */
const webhookUrl = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: 'an absolute http or https URL' }))
  .describe('Where events are POSTed; public addresses only');

const eventTypes = z
  .array(webhookEventType)
  .min(1)
  .max(WEBHOOK_EVENT_TYPES.length)
  .transform((types) => [...new Set(types)])
  .describe('The event types this endpoint receives');

export const createWebhookBody = z
  .object({
    url: webhookUrl,
    eventTypes,
    enabled: z.boolean().default(true),
    description: z.string().trim().max(500).optional(),
  })
  .meta({ id: 'CreateWebhookRequest' });
export type CreateWebhookBody = z.infer<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({
    url: webhookUrl.optional(),
    eventTypes: eventTypes.optional(),
    enabled: z.boolean().optional().describe('true re-enables an endpoint the service disabled, and clears the reason'),
    description: z.string().trim().max(500).nullable().optional().describe('null removes it'),
  })
  .meta({ id: 'UpdateWebhookRequest' });
export type UpdateWebhookBody = z.infer<typeof updateWebhookBody>;

export const webhookParams = z.object({ webhookId: rowId });
export const deliveryParams = z.object({ webhookId: rowId, deliveryId: rowId });

export const webhookResponse = z
  .object({
    webhookId: z.number().int(),
    url: z.string(),
    description: z.string().nullable(),
    eventTypes: z.array(webhookEventType),
    enabled: z.boolean(),
    disabledOn: isoDateTime.nullable(),
    disabledReason: z.string().nullable().describe('Set when the service disabled the endpoint because every delivery failed for too long'),
    failingSince: isoDateTime.nullable().describe('Start of the current run of failed attempts; null after a success'),
    previousSecretExpiresOn: isoDateTime.nullable().describe('After a rotation, deliveries are signed with the previous secret too until then'),
    createdOn: isoDateTime,
    updatedOn: isoDateTime,
  })
  .meta({ id: 'Webhook' });
export type WebhookResponse = z.infer<typeof webhookResponse>;

const secret = z.string().describe('Standard Webhooks signing secret (whsec_ + base64); shown only here');

export const createdWebhookResponse = webhookResponse.extend({ secret }).meta({ id: 'CreatedWebhook' });
export type CreatedWebhookResponse = z.infer<typeof createdWebhookResponse>;

export const webhookList = z.array(webhookResponse).meta({ id: 'WebhookList' });

export const rotatedSecretResponse = z
  .object({
    webhookId: z.number().int(),
    secret,
    previousSecretExpiresOn: isoDateTime.describe('Until then deliveries carry a signature with the previous secret as well'),
  })
  .meta({ id: 'RotatedWebhookSecret' });
export type RotatedSecretResponse = z.infer<typeof rotatedSecretResponse>;

// What a delivery POSTs: the event.

const taskStatusEnum = intEnum('TaskStatus', TaskStatus);

const taskEventData = z.object({
  previousTaskStatus: taskStatusEnum.nullable().describe('null when the task was created'),
  previousTaskStatusText: z.string().nullable(),
  task: taskStatusResponse.describe('The task as GET sdtask/status showed it right after the change'),
});

const failedTaskEventData = taskEventData.extend({ failureReason: z.string().nullable() });

const batchEventData = z.object({
  batch: z.object({
    batchId: z.number().int(),
    workspaceId: z.number().int(),
    displayName: z.string(),
    totalTasks: z.number().int(),
  }),
  taskStatusCounts: z
    .array(z.object({ taskStatus: taskStatusEnum, taskStatusText: z.string(), count: z.number().int() }))
    .describe('Tasks of the batch by status when it finished'),
});

const uploadEventData = z.object({
  upload: z.object({
    uploadId: z.string(),
    workspaceId: z.number().int(),
    fileType: z.string(),
    size: z.number().int().nullable(),
    location: z.string().describe('The upload location, usable as context.url'),
    completedOn: isoDateTime,
  }),
});

const envelope = {
  id: z.string().describe('Event id, also the webhook-id header: the same on every attempt and redelivery; dedupe on it'),
  timestamp: isoDateTime.describe('When the change happened'),
  organizationId: z.number().int(),
};

export const webhookEventPayload = z
  .discriminatedUnion('type', [
    z.object({ ...envelope, type: z.literal('task.status_changed'), data: taskEventData }),
    z.object({ ...envelope, type: z.literal('task.ready_for_review'), data: taskEventData }),
    z.object({ ...envelope, type: z.literal('task.export_completed'), data: taskEventData }),
    z.object({ ...envelope, type: z.literal('task.failed'), data: failedTaskEventData }),
    z.object({ ...envelope, type: z.literal('batch.finished'), data: batchEventData }),
    z.object({ ...envelope, type: z.literal('upload.completed'), data: uploadEventData }),
  ])
  .meta({ id: 'WebhookEvent', description: 'The JSON body of a webhook delivery (signed per Standard Webhooks)' });
export type WebhookEventPayload = z.infer<typeof webhookEventPayload>;
export type BatchEventData = z.infer<typeof batchEventData>;

// Delivery history.

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const deliveryQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  ...paginationQuery,
});
export type DeliveryQuery = z.infer<typeof deliveryQuery>;

export const deliveryResponse = z
  .object({
    deliveryId: z.number().int(),
    webhookId: z.number().int(),
    eventId: z.string(),
    eventType: webhookEventType,
    status: z.enum(DELIVERY_STATUSES).describe('pending until a 2xx answer (delivered) or the end of the retry schedule (failed)'),
    attempts: z.number().int().describe('Attempts made'),
    nextAttemptOn: isoDateTime.nullable().describe('When the next attempt is due, while pending'),
    lastAttemptOn: isoDateTime.nullable(),
    lastStatusCode: z.number().int().nullable().describe('HTTP status of the last answer; null when none came'),
    lastDurationMs: z.number().int().nullable(),
    lastError: z.string().nullable(),
    deliveredOn: isoDateTime.nullable(),
    createdOn: isoDateTime,
    attemptLog: z.array(
      z.object({
        attempt: z.number().int(),
        attemptedOn: isoDateTime,
        statusCode: z.number().int().nullable(),
        durationMs: z.number().int(),
        error: z.string().nullable(),
        responseBody: z.string().nullable().describe('The start of the answer (1 KiB at most)'),
      }),
    ),
    payload: webhookEventPayload,
  })
  .meta({ id: 'WebhookDelivery' });
export type DeliveryResponse = z.infer<typeof deliveryResponse>;

export const deliveryPage = pageSchema(deliveryResponse, 'WebhookDeliveryPage');

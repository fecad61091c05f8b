/**
 * Webhook events as receivers get them. Triggers store what they saw at the change (a task's
 * status columns, an upload) in "WebhookEvent".data; this renders it with the API's own
 * serializers, so an event's task is exactly what GET sdtask/status showed right after the change,
 * and every attempt of a delivery sends the same bytes.
 */
import { z } from 'zod';
import { publicBaseUrl, type Config } from '../../config.js';
import { taskStatusText, toTaskStatusResponse } from '../tasks/tasks.service.js';
import type { BatchEventData, WebhookEventPayload, WebhookEventType } from './webhooks.schemas.js';

/**
 * The columns webhook_task_snapshot() writes (migration 20261128130000_webhooks; failureReason and
 * pagesProcessed since 20261130100000_task_pages_processed, null in events stored before).
 */
const taskSnapshot = z.object({
  id: z.number().int(),
  workspaceId: z.number().int(),
  batchId: z.number().int().nullable(),
  taskNumber: z.number().int(),
  externalId: z.string().nullable(),
  displayName: z.string(),
  description: z.string().nullable(),
  createdAt: z.coerce.date(),
  taskStatus: z.number().int(),
  integrationStatus: z.number().int(),
  externalIntegrationStatus: z.string(),
  totalPages: z.number().int(),
  pagesProcessed: z.number().int().nullable().default(null),
  restartCount: z.number().int(),
  preProcessingStartedOn: z.coerce.date().nullable(),
  warning: z.boolean(),
  failureReason: z.string().nullable().default(null),
});

const taskEventSnapshot = z.object({
  previousTaskStatus: z.number().int().nullable(),
  failureReason: z.string().nullable().optional(),
  task: taskSnapshot,
});

const uploadEventSnapshot = z.object({
  upload: z.object({
    id: z.string(),
    workspaceId: z.number().int(),
    fileType: z.string(),
    size: z.number().int().nullable(),
    completedAt: z.coerce.date(),
  }),
});

export interface StoredEvent {
  id: string;
  tenantId: number;
  type: string;
  data: unknown;
  createdAt: Date;
}

function taskData(data: unknown) {
  const snapshot = taskEventSnapshot.parse(data);
  const previous = snapshot.previousTaskStatus;
  return {
    previousTaskStatus: previous as WebhookTaskStatus | null,
    previousTaskStatusText: previous === null ? null : taskStatusText(previous),
    task: toTaskStatusResponse(snapshot.task),
    failureReason: snapshot.failureReason ?? null,
  };
}
type WebhookTaskStatus = ReturnType<typeof toTaskStatusResponse>['taskStatus'];

/** The body of every delivery of `event`. */
export function renderEvent(event: StoredEvent, config: Config): WebhookEventPayload {
  const envelope = { id: event.id, timestamp: event.createdAt.toISOString(), organizationId: event.tenantId };
  const type = event.type as WebhookEventType;
  switch (type) {
    case 'task.status_changed':
    case 'task.ready_for_review':
    case 'task.export_completed': {
      const { failureReason: _unused, ...data } = taskData(event.data);
      return { ...envelope, type, data };
    }
    case 'task.failed':
      return { ...envelope, type, data: taskData(event.data) };
    case 'batch.finished':
      // Rendered when it was decided (webhook-dispatch.ts): nothing of it changes afterwards.
      return { ...envelope, type, data: event.data as BatchEventData };
    case 'upload.completed': {
      const { upload } = uploadEventSnapshot.parse(event.data);
      return {
        ...envelope,
        type,
        data: {
          upload: {
            uploadId: upload.id,
            workspaceId: upload.workspaceId,
            fileType: upload.fileType,
            size: upload.size,
            location: `${publicBaseUrl(config)}/files/${upload.id}`,
            completedOn: upload.completedAt.toISOString(),
          },
        },
      };
    }
    default:
      throw new Error(`unknown webhook event type ${String(type)} (event ${event.id})`);
  }
}

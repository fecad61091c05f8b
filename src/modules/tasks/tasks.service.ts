import { randomBytes, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app.js';
import type { Db } from '../../db/prisma.js';
import {
  IntegrationStatus,
  nameOf,
  ReviewRoles,
  TaskStatus,
  TaskType,
  TemplateType,
  WorkspaceType,
  type TaskAssignmentOrderType,
} from '../../domain/enums.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, type FieldError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { enqueuePreprocess } from '../../pipeline/queues.js';
import { resolveWorkspace } from '../workspaces/workspaces.service.js';
import { assertSourceAvailable } from './task-source.js';
import { findTaskByExternalId, findTaskById, findTaskStatusRow, findUsersByEmail, takeTaskNumber, type TaskRow, type TaskStatusRow } from './tasks.repository.js';
import type { CreateTaskBody, CreateTaskResponse, TaskStatusResponse } from './tasks.schemas.js';

type Deps = Pick<AppDeps, 'prisma' | 'config' | 'queues'>;
type Workspace = Awaited<ReturnType<typeof resolveWorkspace>>;

/** Workspaces whose models accept a pageRange (spec, create task: context.pageRange). */
const PAGE_RANGE_TEMPLATES: ReadonlySet<number> = new Set([
  TemplateType.InvoicesUniversal,
  TemplateType.InvoicesPortugal,
  TemplateType.Receipts,
  TemplateType.Layout,
  TemplateType.IdentificationDocument,
  TemplateType.Custom,
]);

function rejected(title: string, field: string, message: string): BadRequestError {
  return new BadRequestError(message, { title, errors: [{ field, message }] });
}

export function taskStatusText(status: number): string {
  return nameOf(TaskStatus, status) ?? 'Unknown';
}

export function integrationStatusText(status: number): string {
  return nameOf(IntegrationStatus, status) ?? 'Unknown';
}

export function toTaskStatusResponse(t: TaskStatusRow): TaskStatusResponse {
  return {
    taskId: t.id,
    workspaceId: t.workspaceId,
    batchId: t.batchId,
    taskNumber: t.taskNumber,
    externalId: t.externalId,
    displayName: t.displayName,
    description: t.description,
    createdOn: t.createdAt.toISOString(),
    taskStatus: t.taskStatus as TaskStatusResponse['taskStatus'],
    taskStatusText: taskStatusText(t.taskStatus),
    integrationStatus: t.integrationStatus as TaskStatusResponse['integrationStatus'],
    integrationStatusText: integrationStatusText(t.integrationStatus),
    externalIntegrationStatus: t.externalIntegrationStatus,
    totalPages: t.totalPages,
    ...(t.restartCount > 0 ? { restartCount: t.restartCount } : {}),
    preProcessingStartedOn: toIso(t.preProcessingStartedOn),
    warning: t.warning,
  };
}

/** The spec's create-task rules that depend only on the request and its workspace. */
function assertRequestFitsWorkspace(body: CreateTaskBody, workspace: Workspace): void {
  const ctx = body.context;
  const isTemplate = workspace.workspaceType === WorkspaceType.Template;
  const isTranscript = workspace.taskType === TaskType.Transcript;
  const errors: FieldError[] = [];
  const refuse = (field: string, message: string) => errors.push({ field, message });

  if (!workspace.hasPipeline) refuse('workspaceId', 'the workspace has no processing pipeline');
  if (isTemplate && ctx.splitTaskInChunks) refuse('context.splitTaskInChunks', 'splitting is not available in Template workspaces');
  if (body.taskAssignment && isTemplate) refuse('taskAssignment', 'task assignment is not allowed in Template workspaces');
  if (body.taskAssignment && workspace.taskType === TaskType.Labelling) {
    refuse('taskAssignment', 'task assignment does not apply to Labelling workspaces');
  }
  const hasPageRange = ctx.pageRange !== undefined && ctx.pageRange.trim() !== '';
  if (hasPageRange && ctx.splitTaskInChunks) refuse('context.pageRange', 'pageRange cannot be combined with splitTaskInChunks');
  if (hasPageRange && !PAGE_RANGE_TEMPLATES.has(workspace.templateType)) {
    refuse('context.pageRange', 'pageRange is available in Invoices, Receipts, Layout, ID Documents and Custom workspaces only');
  }
  if (hasPageRange) {
    for (const part of ctx.pageRange!.split(',')) {
      const [from, to] = part.split('-').map((n) => Number(n.trim()));
      if (from === 0 || to === 0) refuse('context.pageRange', 'page numbers start at 1');
      if (to !== undefined && from! > to) refuse('context.pageRange', `range ${part.trim()} runs backwards`);
    }
  }
  if (ctx.transcriptLanguage && !isTranscript) refuse('context.transcriptLanguage', 'transcriptLanguage is for Transcription workspaces only');
  if (ctx.splitChunkDurationMinutes !== undefined) {
    if (!isTranscript) refuse('context.splitChunkDurationMinutes', 'splitChunkDurationMinutes is for Transcription workspaces only');
    if (!ctx.splitTaskInChunks) refuse('context.splitChunkDurationMinutes', 'splitChunkDurationMinutes needs splitTaskInChunks true');
  }
  if (ctx.splitChunkNumberPages !== undefined) {
    if (isTranscript || isTemplate) refuse('context.splitChunkNumberPages', 'splitChunkNumberPages is not available in Transcripts and Template workspaces');
    if (!ctx.splitTaskInChunks) refuse('context.splitChunkNumberPages', 'splitChunkNumberPages needs splitTaskInChunks true');
  }
  if (body.useHigherQuality && workspace.templateType !== TemplateType.DocumentAnonymization) {
    refuse('useHigherQuality', 'useHigherQuality is for Document Anonymization workspaces only');
  }
  if (errors.length) {
    throw new BadRequestError(errors.map((e) => `${e.field}: ${e.message}`).join('; '), { title: 'InvalidTaskRequest', errors });
  }
}

type Tenant = NonNullable<Awaited<ReturnType<Db['tenant']['findUnique']>>>;

function assertTenantAllows(body: CreateTaskBody, tenant: Tenant): void {
  if (tenant.licenceExpiresOn && tenant.licenceExpiresOn.getTime() <= Date.now()) {
    throw new ForbiddenError('The organization licence has expired', { title: 'LicenceExpired' });
  }
  if (tenant.freeVolume !== null && tenant.freeVolume <= 0) {
    throw new ForbiddenError('The organization has no free volume left', { title: 'NoFreeVolume' });
  }
  if (body.priority > 1 && !tenant.featureHighPriority) {
    throw new ForbiddenError('High priority is not enabled for this organization', { title: 'FeatureNotEnabled' });
  }
  if (body.customFormValues && !tenant.featureCustomFormValues) {
    throw new ForbiddenError('customFormValues is not enabled for this organization', { title: 'FeatureNotEnabled' });
  }
}

/** Assigned users that already exist must be allowed to review and not disabled; others may be invited. */
async function assertReviewersAllowed(db: Db, tenantId: number, emails: string[]): Promise<void> {
  const lower = emails.map((e) => e.toLowerCase());
  if (new Set(lower).size !== lower.length) throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', 'duplicate email');
  for (const user of await findUsersByEmail(db, tenantId, emails)) {
    if (user.status === 'Disabled') throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', `${user.email} is disabled`);
    if (!ReviewRoles.has(user.roleName)) {
      throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', `${user.email} (${user.roleName}) lacks task review permission`);
    }
  }
}

async function resolveBatch(db: Db, tenantId: number, batchId: number | undefined, workspaceId: number) {
  if (batchId === undefined) return null;
  const batch = await db.batch.findFirst({ where: { id: batchId, tenantId } });
  if (!batch) throw new NotFoundError(`Batch ${batchId} was not found`);
  if (batch.workspaceId !== workspaceId) {
    throw rejected('BatchWorkspaceMismatch', 'batchId', `batch ${batchId} belongs to workspace ${batch.workspaceId}, not ${workspaceId}`);
  }
  return batch;
}

function randomDisplayName(): string {
  return `Task ${randomBytes(4).toString('hex')}`;
}

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string }).code === 'P2002';
}

export async function createTask(deps: Deps, tenantId: number, body: CreateTaskBody, log?: (err: unknown) => void): Promise<CreateTaskResponse> {
  const { prisma, config } = deps;
  const tenant = await prisma.tenant.findUnique({ where: { id: tenantId } });
  if (!tenant) throw new NotFoundError('The organization no longer exists');
  const workspace = await resolveWorkspace(prisma, tenantId, body.workspaceId);
  const batch = await resolveBatch(prisma, tenantId, body.batchId, workspace.id);
  assertRequestFitsWorkspace(body, workspace);
  assertTenantAllows(body, tenant);
  if (body.taskAssignment) await assertReviewersAllowed(prisma, tenantId, body.taskAssignment.assignedUsers);
  if (body.externalId && (await findTaskByExternalId(prisma, tenantId, body.externalId))) {
    throw new ConflictError(`A task with externalId ${body.externalId} already exists`, { title: 'DuplicateExternalId' });
  }
  await assertSourceAvailable(prisma, config, tenantId, body.context.url);

  const priority = body.priority > 1 ? 2 : 1;
  const request = {
    context: body.context,
    customFormValues: body.customFormValues ?? null,
    useHigherQuality: body.useHigherQuality ?? false,
    priority: body.priority,
  };
  let task: TaskRow;
  try {
    task = await prisma.$transaction(async (tx) => {
      const taskNumber = await takeTaskNumber(tx, workspace.id);
      const created = await tx.task.create({
        data: {
          tenantId,
          workspaceId: workspace.id,
          batchId: batch?.id ?? null,
          taskNumber,
          externalId: body.externalId ?? null,
          displayName: body.displayName ?? randomDisplayName(),
          description: body.description ?? null,
          taskStatus: TaskStatus.QueuedForPreProcessing,
          integrationStatus: IntegrationStatus.Never,
          priority,
          request,
          metadata: body.metadata ?? {},
          assignmentOrder: body.taskAssignment?.order ?? null,
        },
      });
      if (body.taskAssignment) {
        await tx.taskAssignment.createMany({
          data: body.taskAssignment.assignedUsers.map((email, position) => ({ taskId: created.id, position, email: email.toLowerCase() })),
        });
      }
      if (batch) await tx.batch.update({ where: { id: batch.id }, data: { totalTasks: { increment: 1 } } });
      return created;
    });
  } catch (err) {
    // Two creates with the same externalId racing past the check above.
    if (isUniqueViolation(err)) throw new ConflictError(`A task with externalId ${body.externalId} already exists`, { title: 'DuplicateExternalId' });
    throw err;
  }
  // After commit: the task exists even if Redis is down now; the sweeper enqueues it later.
  await enqueuePreprocess(deps.queues, task.priority, { tenantId, taskId: task.id, restartCount: 0 }, log);

  return {
    taskId: task.id,
    displayName: task.displayName,
    description: task.description,
    externalId: task.externalId,
    totalPages: task.totalPages,
    taskStatus: TaskStatus.QueuedForPreProcessing,
    taskStatusText: taskStatusText(task.taskStatus),
    integrationStatus: IntegrationStatus.Never,
    integrationStatusText: integrationStatusText(task.integrationStatus),
    workspaceId: task.workspaceId,
    requestId: randomUUID(),
    batchId: task.batchId,
    taskAssignment: body.taskAssignment
      ? { assignedUsers: body.taskAssignment.assignedUsers, order: body.taskAssignment.order as TaskAssignmentOrderType }
      : null,
  };
}

export interface TaskRef {
  taskId?: number;
  externalId?: string;
}

function requireTaskRef(ref: TaskRef): void {
  if (ref.taskId === undefined && ref.externalId === undefined) {
    throw new BadRequestError('taskId or externalId is required', {
      title: 'ValidationError',
      errors: [{ field: 'taskId', message: 'taskId or externalId is required' }],
    });
  }
}

function taskNotFound(ref: TaskRef): NotFoundError {
  return new NotFoundError(
    ref.taskId !== undefined && ref.externalId !== undefined
      ? `No task ${ref.taskId} with externalId ${ref.externalId}`
      : `Task ${ref.taskId ?? ref.externalId} was not found`,
  );
}

/** The task named by id and/or externalId; when both are given they must name the same task. */
export async function findTaskByRef(db: Db, tenantId: number, ref: TaskRef): Promise<TaskRow> {
  requireTaskRef(ref);
  const task =
    ref.taskId !== undefined ? await findTaskById(db, tenantId, ref.taskId) : await findTaskByExternalId(db, tenantId, ref.externalId!);
  if (!task || (ref.externalId !== undefined && task.externalId !== ref.externalId)) throw taskNotFound(ref);
  return task;
}

export async function getTaskStatus(db: Db, tenantId: number, ref: TaskRef): Promise<TaskStatusResponse> {
  requireTaskRef(ref);
  const row = await findTaskStatusRow(db, tenantId, ref);
  if (!row) throw taskNotFound(ref);
  return toTaskStatusResponse(row);
}

export async function setExternalIntegrationStatus(db: Db, tenantId: number, ref: TaskRef, value: string): Promise<void> {
  const task = await findTaskByRef(db, tenantId, ref);
  await db.task.update({ where: { id: task.id }, data: { externalIntegrationStatus: value } });
}

/**
 * Reprocess (spec endpoint 3): from any status, back to the pre-processing queue with the
 * original request. Results, edits and split parts of the previous run are dropped, the review
 * workflow restarts, and the job id of the new run differs from every earlier one.
 */
export async function reprocessTask(deps: Deps, tenantId: number, ref: TaskRef, log?: (err: unknown) => void): Promise<void> {
  const task = await findTaskByRef(deps.prisma, tenantId, ref);
  const updated = await deps.prisma.$transaction(async (tx) => {
    await tx.documentChunk.deleteMany({ where: { taskId: task.id } });
    await tx.transcript.deleteMany({ where: { taskId: task.id } });
    await tx.taskSpeaker.deleteMany({ where: { taskId: task.id, source: 1 } });
    await tx.taskAssignment.updateMany({ where: { taskId: task.id }, data: { reviewState: 0, reviewedAt: null } });
    // Parts of an earlier split are superseded by the parts the new run will make.
    await tx.task.updateMany({
      where: { tenantId, parentTaskId: task.id, taskStatus: { not: TaskStatus.Deleted } },
      data: { taskStatus: TaskStatus.Deleted, statusChangedAt: new Date() },
    });
    const now = new Date();
    return tx.task.update({
      where: { id: task.id },
      data: {
        restartCount: { increment: 1 },
        preProcessingStartedOn: now,
        taskStatus: TaskStatus.QueuedForPreProcessing,
        statusChangedAt: now,
        externalIntegrationStatus: 'never',
        failureReason: null,
        warning: false,
        totalPages: 0,
        averageConfidence: null,
        redactedBlobKey: null,
        lastCheckedOutById: null,
        lastCheckedOutUntil: null,
      },
    });
  });
  await enqueuePreprocess(deps.queues, updated.priority, { tenantId, taskId: updated.id, restartCount: updated.restartCount }, log);
}

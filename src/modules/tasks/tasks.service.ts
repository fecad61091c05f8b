import { randomBytes, randomUUID } from 'node:crypto';
import type { AppDeps } from '../../app-deps.js';
import { inTransaction, type Db } from '../../db/prisma.js';
import {
  IntegrationStatus,
  nameOf,
  TaskStatus,
  TaskType,
  TemplateType,
  UserStatus,
  WorkspaceType,
  type TaskAssignmentOrderType,
} from '../../domain/enums.js';
import { isHighPriority } from '../../domain/priority.js';
import { pageRangeProblems } from '../../domain/page-range.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError, type FieldError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { enqueuePreprocess, taskJob } from '../../queues/queues.js';
import { tasksCreated } from '../../observability/metrics.js';
import { findUsersWithRolesIn } from '../users/users.repository.js';
import { roleInWorkspace, roleMayReview, userRolesOf } from '../users/workspace-roles.js';
import { assertSourceAvailable } from './task-source.js';
import { clearTaskResults } from './task-results.repository.js';
import { changeBatchTotalTasks } from '../batches/batches.repository.js';
import { deleteEarlierRunFiles, deleteTaskFiles } from '../../storage/task-files.js';
import {
  findLiveParts,
  findTaskByExternalId,
  findTaskById,
  findTaskByIdOrThrow,
  findTaskStatusRow,
  insertTask,
  markTasksDeleted,
  readCreateTaskContext,
  resetTaskReviews,
  restartTask,
  setTaskExternalIntegrationStatus,
  type CreateTaskContext,
  type TaskRow,
  type TaskStatusRow,
} from './tasks.repository.js';
import type { CreateTaskBody, CreateTaskResponse, TaskStatusResponse } from './tasks.schemas.js';

type Deps = Pick<AppDeps, 'prisma' | 'config' | 'queues' | 'blobs'>;
type Workspace = NonNullable<CreateTaskContext['workspace']>;

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
    pagesProcessed: t.pagesProcessed,
    ...(t.restartCount > 0 ? { restartCount: t.restartCount } : {}),
    preProcessingStartedOn: toIso(t.preProcessingStartedOn),
    warning: t.warning,
    failureReason: t.failureReason,
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
    for (const problem of pageRangeProblems(ctx.pageRange!)) refuse('context.pageRange', problem);
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

function assertTenantAllows(body: CreateTaskBody, tenant: CreateTaskContext['tenant']): void {
  if (tenant.licenceExpiresOn && tenant.licenceExpiresOn.getTime() <= Date.now()) {
    throw new ForbiddenError('The organization licence has expired', { title: 'LicenceExpired' });
  }
  if (tenant.freeVolume !== null && tenant.freeVolume <= 0) {
    throw new ForbiddenError('The organization has no free volume left', { title: 'NoFreeVolume' });
  }
  if (isHighPriority(body.priority) && !tenant.featureHighPriority) {
    throw new ForbiddenError('High priority is not enabled for this organization', { title: 'FeatureNotEnabled' });
  }
  if (body.customFormValues && !tenant.featureCustomFormValues) {
    throw new ForbiddenError('customFormValues is not enabled for this organization', { title: 'FeatureNotEnabled' });
  }
}

/**
 * Assigned users that already exist must be allowed to review in the task's workspace (by the same
 * role the review API applies) and not disabled; others may be invited.
 */
async function assertReviewersAllowed(db: Db, tenantId: number, workspaceId: number, emails: string[]): Promise<void> {
  const lower = emails.map((e) => e.toLowerCase());
  if (new Set(lower).size !== lower.length) throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', 'duplicate email');
  for (const user of await findUsersWithRolesIn(db, tenantId, workspaceId, emails)) {
    if (user.status === UserStatus.Disabled) throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', `${user.email} is disabled`);
    const role = roleInWorkspace(userRolesOf(user), workspaceId);
    if (!roleMayReview(role)) {
      const has = role === null ? 'has no role' : `is ${role}`;
      throw rejected('InvalidTaskAssignment', 'taskAssignment.assignedUsers', `${user.email} ${has} in workspace ${workspaceId}: no task review permission`);
    }
  }
}

/** The workspace the task goes to: the one named, else the organization's default. */
function requireWorkspace(context: CreateTaskContext, workspaceId: number | undefined): Workspace {
  if (context.workspace) return context.workspace;
  throw new NotFoundError(workspaceId === undefined ? 'The organization has no default workspace' : `Workspace ${workspaceId} was not found`);
}

/** The batch named, which must be of the organization and of the task's workspace. */
function requireBatchOf(context: CreateTaskContext, batchId: number | undefined, workspaceId: number) {
  if (batchId === undefined) return null;
  const batch = context.batch;
  if (!batch) throw new NotFoundError(`Batch ${batchId} was not found`);
  if (batch.workspaceId !== workspaceId) {
    throw rejected('BatchWorkspaceMismatch', 'batchId', `batch ${batchId} belongs to workspace ${batch.workspaceId}, not ${workspaceId}`);
  }
  return batch;
}

function randomDisplayName(): string {
  return `Task ${randomBytes(4).toString('hex')}`;
}

/**
 * A unique violation of the index `index`: P2002 from a Prisma query, or P2010 (raw query
 * failed) whose driver error is a UniqueConstraintViolation, as insertTask's statement raises
 * it. The pg driver adapter names the index in meta.driverAdapterError.cause.constraint
 * (`index`, or `fields` when Postgres gave no name); Prisma's own engines put the index or its
 * fields in meta.target.
 */
function isUniqueViolation(err: unknown, index: { name: string; field: string }): boolean {
  const { code, meta } = err as {
    code?: string;
    meta?: { target?: unknown; driverAdapterError?: { cause?: { kind?: string; constraint?: { index?: string; fields?: string[] } } } };
  };
  const rawUniqueViolation = code === 'P2010' && meta?.driverAdapterError?.cause?.kind === 'UniqueConstraintViolation';
  if (code !== 'P2002' && !rawUniqueViolation) return false;
  const constraint = meta?.driverAdapterError?.cause?.constraint;
  const fields = [constraint?.fields ?? [], Array.isArray(meta?.target) ? meta.target : []].flat().map((f) => String(f).replace(/"/g, ''));
  return constraint?.index === index.name || meta?.target === index.name || fields.includes(index.field);
}

const EXTERNAL_ID_INDEX = { name: 'Task_tenantId_externalId_key', field: 'externalId' };

function duplicateExternalId(externalId: string | undefined): ConflictError {
  return new ConflictError(`A task with externalId ${externalId} already exists`, { title: 'DuplicateExternalId' });
}

/**
 * Create (spec endpoint 1). The checks read what they need in one round trip and the source's
 * reachability is checked before anything is written; the insert is one statement that holds
 * the workspace's task-number lock only while Postgres runs it; the job is enqueued after the
 * commit, so a task exists even when Redis is down (the sweeper enqueues it later).
 */
export async function createTask(deps: Deps, tenantId: number, body: CreateTaskBody, log?: (err: unknown) => void): Promise<CreateTaskResponse> {
  const { prisma, config } = deps;
  const context = await readCreateTaskContext(prisma, tenantId, body);
  if (!context) throw new NotFoundError('The organization no longer exists');
  const workspace = requireWorkspace(context, body.workspaceId);
  const batch = requireBatchOf(context, body.batchId, workspace.id);
  assertRequestFitsWorkspace(body, workspace);
  assertTenantAllows(body, context.tenant);
  if (body.taskAssignment) await assertReviewersAllowed(prisma, tenantId, workspace.id, body.taskAssignment.assignedUsers);
  if (context.externalIdTaken) throw duplicateExternalId(body.externalId);
  await assertSourceAvailable(prisma, config, deps.blobs, tenantId, body.context.url);

  const priority = isHighPriority(body.priority) ? 2 : 1;
  const task = {
    tenantId,
    workspaceId: workspace.id,
    batchId: batch?.id ?? null,
    externalId: body.externalId ?? null,
    displayName: body.displayName ?? randomDisplayName(),
    description: body.description ?? null,
    taskStatus: TaskStatus.QueuedForPreProcessing,
    integrationStatus: IntegrationStatus.Never,
    priority,
    request: {
      context: body.context,
      customFormValues: body.customFormValues ?? null,
      useHigherQuality: body.useHigherQuality ?? false,
      priority: body.priority,
    },
    metadata: body.metadata ?? {},
    assignmentOrder: body.taskAssignment?.order ?? null,
    assignedEmails: body.taskAssignment?.assignedUsers.map((email) => email.toLowerCase()) ?? [],
  };
  let created: { id: number; jobKey: string | null };
  try {
    created = await insertTask(prisma, task);
  } catch (err) {
    // Two creates with the same externalId racing past the check above. Any other unique
    // violation (a taskNumber clash cannot come from a race: insertTask locks the workspace
    // row) is a fault of the data, not of the request: it stays an internal error.
    if (isUniqueViolation(err, EXTERNAL_ID_INDEX)) throw duplicateExternalId(body.externalId);
    throw err;
  }
  // After commit: the task exists even if Redis is down now; the sweeper enqueues it later.
  await enqueuePreprocess(deps.queues, priority, taskJob({ ...created, tenantId, restartCount: 0 }), log);
  tasksCreated.inc();

  return {
    taskId: created.id,
    displayName: task.displayName,
    description: task.description,
    externalId: task.externalId,
    totalPages: 0,
    taskStatus: TaskStatus.QueuedForPreProcessing,
    taskStatusText: taskStatusText(task.taskStatus),
    integrationStatus: IntegrationStatus.Never,
    integrationStatusText: integrationStatusText(task.integrationStatus),
    workspaceId: workspace.id,
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
  await setTaskExternalIntegrationStatus(db, tenantId, task.id, value);
}

/**
 * Reprocess (spec endpoint 3): from any status, back to the pre-processing queue with the task's
 * first processing request: the original request, or for a part of a split task its own slice
 * (pre-processing reads the part's file; it stays the same part of the same original). Results,
 * edits and split parts of the previous run are dropped, and the batch stops counting those
 * parts; the review workflow restarts, and the job id of the new run differs from every earlier
 * one. A part superseded by a reprocess of its original (Deleted) stays deleted: 409.
 */
export async function reprocessTask(deps: Deps, tenantId: number, ref: TaskRef, log?: (err: unknown) => void): Promise<void> {
  const task = await findTaskByRef(deps.prisma, tenantId, ref);
  const superseded = () =>
    new ConflictError(`Task ${task.id} is a part superseded by a reprocess of task ${task.parentTaskId}; reprocess that task instead`, { title: 'TaskSuperseded' });
  if (task.taskStatus === TaskStatus.Deleted) throw superseded();
  const { updated, supersededParts } = await inTransaction(deps.prisma, async (tx) => {
    const now = new Date();
    // The task's row first: its lock orders this reprocess against a split committing the parts
    // of the run it ends, so the query for earlier parts below sees every one of them.
    if (!(await restartTask(tx, tenantId, task.id, now))) throw superseded();
    await clearTaskResults(tx, tenantId, task.id);
    await resetTaskReviews(tx, tenantId, task.id);
    // Parts of an earlier split are superseded by the parts the new run will make, and leave
    // their batch's count of tasks.
    const parts = await findLiveParts(tx, tenantId, task.id);
    if (parts.length) {
      await markTasksDeleted(tx, tenantId, parts.map((p) => p.id), now);
      const perBatch = new Map<number, number>();
      for (const { batchId } of parts) if (batchId !== null) perBatch.set(batchId, (perBatch.get(batchId) ?? 0) + 1);
      for (const [batchId, count] of perBatch) await changeBatchTotalTasks(tx, tenantId, batchId, -count);
    }
    return { updated: await findTaskByIdOrThrow(tx, tenantId, task.id), supersededParts: parts.map((p) => p.id) };
  });
  await enqueuePreprocess(deps.queues, updated.priority, taskJob(updated), log);
  // The files of the runs this one replaces (split parts, redacted outputs) and of the parts it
  // supersedes. After the commit and best effort: a file left behind only takes space.
  try {
    await deleteEarlierRunFiles(deps.blobs, tenantId, updated.id, updated.restartCount);
    for (const partId of supersededParts) await deleteTaskFiles(deps.blobs, tenantId, partId);
  } catch (err) {
    log?.(err);
  }
}

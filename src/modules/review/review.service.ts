import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { inTransaction, type Db } from '../../db/prisma.js';
import { IntegrationStatus, TaskStatus, TaskType } from '../../domain/enums.js';
import { toPage, type Page } from '../../http/list-query.js';
import { AppError, ConflictError, ForbiddenError, NotFoundError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { userDisplayName } from '../../domain/user-names.js';
import { signedFileUrl } from '../../storage/file-links.js';
import { integrationStatusText, taskStatusText } from '../tasks/tasks.service.js';
import { learnFromReview, type ReviewedTask } from '../vendor-profiles/vendor-profile-learning.js';
import { mayReviewIn, reviewScope } from '../users/workspace-roles.js';
import { pixelsPerUnit } from './page-images.js';
import {
  findAssignedTask,
  findChunks,
  findReviewTask,
  findTaskSpeakers,
  findTranscript,
  listReviewableTasks,
  lockTask,
  markAssignmentReviewed,
  moveTasks,
  partStatuses,
  releaseLearningSavepoint,
  rollBackToLearningSavepoint,
  setLearningSavepoint,
  takeCheckout,
  type AssignedTaskRow,
  type ReviewTask,
} from './review.repository.js';
import { CHECKOUT_MINUTES, checkoutHolder, reviewIsComplete, reviewRefusal, ReviewState } from './review-rules.js';
import type { CheckoutResponse, CompleteResponse, ReviewTaskDetail, ReviewTaskSummary } from './review.schemas.js';
import { reviewChunkOf, reviewTranscriptOf, storedTranscript } from './review-views.js';
import type { Reviewer } from './reviewer.js';

type Deps = Pick<AppDeps, 'prisma' | 'config' | 'fileUrlSecret'>;

type CheckoutFields = Pick<ReviewTask, 'lastCheckedOutById' | 'lastCheckedOutUntil' | 'lastCheckedOutBy'>;

function checkoutOf(task: CheckoutFields, now: Date): ReviewTaskSummary['checkout'] {
  const holder = checkoutHolder(task, now);
  return holder === null ? null : { userId: holder, userName: userDisplayName(task.lastCheckedOutBy) ?? '', until: task.lastCheckedOutUntil!.toISOString() };
}

type SummaryFields = Omit<ReviewTask, 'assignments'>;

function summaryOf(task: SummaryFields, now: Date): ReviewTaskSummary {
  return {
    taskId: task.id,
    workspaceId: task.workspaceId,
    displayName: task.displayName,
    description: task.description,
    taskType: task.workspace.taskType as ReviewTaskSummary['taskType'],
    taskStatus: task.taskStatus as ReviewTaskSummary['taskStatus'],
    taskStatusText: taskStatusText(task.taskStatus),
    totalPages: task.totalPages,
    // A task in review was read whole (tasks recognized before the count was kept have none).
    pagesProcessed: task.workspace.taskType === TaskType.Transcript ? null : (task.pagesProcessed ?? task.totalPages),
    createdOn: task.createdAt.toISOString(),
    assignmentOrder: task.assignmentOrder as ReviewTaskSummary['assignmentOrder'],
    checkout: checkoutOf(task, now),
  };
}

/** Tasks the reviewer may review now, oldest first; those another reviewer holds show who holds them. */
export async function listMyTasks(deps: Deps, reviewer: Reviewer, page: { pageNumber: number; pageSize: number }): Promise<Page<ReviewTaskSummary>> {
  const { tasks, total } = await listReviewableTasks(
    deps.prisma,
    { tenantId: reviewer.tenantId, email: reviewer.email, workspaces: reviewScope(reviewer) },
    page,
  );
  const now = new Date();
  return toPage(tasks.map((task) => summaryOf(task, now)), total, page.pageNumber, page.pageSize);
}

/** Refuses a reviewer who may not review the task now (role in its workspace, status, assignment and turn). */
function assertMayReview(reviewer: Reviewer, task: AssignedTaskRow): void {
  if (!mayReviewIn(reviewer, task.workspaceId)) {
    throw new ForbiddenError("Your role in the task's workspace has no task review permission", { title: 'ReviewNotPermitted' });
  }
  const refusal = reviewRefusal(task, reviewer.email);
  if (refusal) throw new AppError(refusal.status, refusal.detail, { title: refusal.title });
}

/** Edits and completion need the checkout: they never overwrite the work of the reviewer who holds it. */
export function assertHoldsCheckout(reviewer: Reviewer, task: AssignedTaskRow, now: Date): void {
  const holder = checkoutHolder(task, now);
  if (holder !== reviewer.userId) {
    throw new ConflictError(holder === null ? 'Check the task out first' : 'Another reviewer has checked the task out', { title: 'CheckoutRequired' });
  }
}

/** The task, when the reviewer may review it now. */
export async function reviewableTask(db: Db, reviewer: Reviewer, taskId: number): Promise<ReviewTask> {
  const task = await findReviewTask(db, reviewer.tenantId, taskId);
  if (!task) throw new NotFoundError(`Task ${taskId} was not found`);
  assertMayReview(reviewer, task);
  return task;
}

export async function getReviewTask(deps: Deps, reviewer: Reviewer, taskId: number, basePath: string): Promise<ReviewTaskDetail> {
  const task = await reviewableTask(deps.prisma, reviewer, taskId);
  const isTranscript = task.workspace.taskType === TaskType.Transcript;
  const [chunks, transcript, speakers] = await Promise.all([
    isTranscript ? [] : findChunks(deps.prisma, reviewer.tenantId, task.id),
    isTranscript ? findTranscript(deps.prisma, reviewer.tenantId, task.id) : null,
    isTranscript ? findTaskSpeakers(deps.prisma, reviewer.tenantId, task.id) : [],
  ]);
  const scale = pixelsPerUnit(task);
  const pageNumbers = scale === undefined ? [] : [...new Set(chunks.map((c) => c.pageNumber))].sort((a, b) => a - b);
  return {
    ...summaryOf(task, new Date()),
    assignments: task.assignments.map((a) => ({ email: a.email, reviewed: a.reviewState === ReviewState.Reviewed, reviewedOn: toIso(a.reviewedAt) })),
    fileUrl: signedFileUrl(deps, task.sourceBlobKey),
    pages: pageNumbers.map((pageNumber) => ({ pageNumber, imageUrl: `${basePath}/tasks/${task.id}/pages/${pageNumber}.png`, pixelsPerUnit: scale! })),
    chunks: chunks.map(reviewChunkOf),
    transcript: transcript && reviewTranscriptOf(transcript, storedTranscript(transcript), speakers),
  };
}

/** The task's page source, when the reviewer may review it (what the page image route renders). */
export async function reviewablePageSource(deps: Deps, reviewer: Reviewer, taskId: number) {
  const { sourceBlobKey, sourceMimeType } = await reviewableTask(deps.prisma, reviewer, taskId);
  return { sourceBlobKey, sourceMimeType };
}

/** ToReview or InReview -> InReview, held by the reviewer for CHECKOUT_MINUTES (again: extended). */
export async function checkOut(deps: Deps, reviewer: Reviewer, taskId: number): Promise<CheckoutResponse> {
  const task = await reviewableTask(deps.prisma, reviewer, taskId);
  const now = new Date();
  const holder = checkoutHolder(task, now);
  if (holder !== null && holder !== reviewer.userId) {
    throw new ConflictError(`${userDisplayName(task.lastCheckedOutBy)} has checked the task out until ${task.lastCheckedOutUntil!.toISOString()}`, {
      title: 'CheckedOutByAnother',
    });
  }
  const until = new Date(now.getTime() + CHECKOUT_MINUTES * 60_000);
  if (!(await takeCheckout(deps.prisma, task, reviewer.userId, now, until))) {
    throw new ConflictError('The task changed while it was being checked out; try again', { title: 'TaskChanged' });
  }
  return {
    taskId: task.id,
    taskStatus: TaskStatus.InReview,
    taskStatusText: taskStatusText(TaskStatus.InReview),
    checkout: { userId: reviewer.userId, userName: reviewer.displayName, until: until.toISOString() },
  };
}

/** Statuses in which a part counts as reviewed for its original. */
const EXPORTED: readonly number[] = [TaskStatus.ExportCompleted, TaskStatus.Processed];

/**
 * Completes the reviewer's review. While other assigned reviewers still have to review, the task
 * goes back to ToReview for them; once the review is complete it is ExportCompleted with its
 * integration Queued, and so is the original of a split part once all its parts are. The task
 * (and its original first: one lock order, no deadlock) is locked, so two completions at once
 * cannot both miss being the last.
 */
export async function completeReview(deps: Deps, reviewer: Reviewer, taskId: number, log?: FastifyBaseLogger): Promise<CompleteResponse> {
  const found = await reviewableTask(deps.prisma, reviewer, taskId);
  return inTransaction(deps.prisma, async (tx) => {
    if (found.parentTaskId !== null) await lockTask(tx, reviewer.tenantId, found.parentTaskId);
    await lockTask(tx, reviewer.tenantId, found.id);
    // Read again under the lock: another completion may have come first.
    const task = (await findAssignedTask(tx, reviewer.tenantId, taskId))!;
    const now = new Date();
    assertMayReview(reviewer, task);
    assertHoldsCheckout(reviewer, task, now);
    if (task.assignments.length) await markAssignmentReviewed(tx, task.tenantId, task.id, reviewer.email, now);
    const assignments = task.assignments.map((a) => (a.email === reviewer.email ? { ...a, reviewState: ReviewState.Reviewed } : a));
    const complete = reviewIsComplete({ ...task, assignments });
    const taskStatus = complete ? TaskStatus.ExportCompleted : TaskStatus.ToReview;
    const integrationStatus = complete ? IntegrationStatus.Queued : task.integrationStatus;
    // The checkout ends with the review: lastCheckedOutUntil records when.
    await moveTasks(tx, task.tenantId, { id: task.id }, task.taskStatus, { taskStatus, integrationStatus, statusChangedAt: now, lastCheckedOutUntil: now });
    // What the reviewer confirmed and corrected teaches the vendor's profile (invoice and receipt workspaces).
    if (complete) await learnVendorProfile(tx, { tenantId: task.tenantId, workspaceId: task.workspaceId, taskId: task.id, restartCount: task.restartCount }, now, log);
    if (complete && task.parentTaskId !== null) {
      const parts = await partStatuses(tx, task.tenantId, task.parentTaskId);
      if (parts.every((p) => EXPORTED.includes(p.taskStatus))) {
        await moveTasks(tx, task.tenantId, { id: task.parentTaskId }, TaskStatus.Split, {
          taskStatus: TaskStatus.ExportCompleted,
          integrationStatus: IntegrationStatus.Queued,
          statusChangedAt: now,
        });
      }
    }
    return {
      taskId: task.id,
      taskStatus: taskStatus as CompleteResponse['taskStatus'],
      taskStatusText: taskStatusText(taskStatus),
      integrationStatus: integrationStatus as CompleteResponse['integrationStatus'],
      integrationStatusText: integrationStatusText(integrationStatus),
      reviewComplete: complete,
    };
  });
}

/**
 * Vendor-profile learning in the completion's transaction, so the review and what it taught commit
 * together; behind a savepoint, so that a review whose document teaches nothing usable (a learning
 * error) still completes, and the error is logged.
 */
async function learnVendorProfile(tx: Db, task: ReviewedTask, now: Date, log: FastifyBaseLogger | undefined): Promise<void> {
  await setLearningSavepoint(tx);
  try {
    await learnFromReview(tx, task, now);
    await releaseLearningSavepoint(tx);
  } catch (err) {
    await rollBackToLearningSavepoint(tx);
    log?.error({ err, taskId: task.taskId }, 'vendor profile learning failed; the review completed without it');
  }
}

/**
 * Hand-over: the integrating system has read the export of an ExportCompleted task, so the task
 * is Processed and its integration Successful, lastIntegratedOn now. lastIntegratedBy stays null:
 * it names a user and the reader is an API client. The export of an original carries its parts,
 * so they are handed over with it. Call it from the export services once the task is resolved in
 * the caller's organization; a task in any other status is left alone. Returns whether it moved.
 */
export async function markHandedOver(db: Db, tenantId: number, taskId: number): Promise<boolean> {
  const now = new Date();
  const handedOver = { taskStatus: TaskStatus.Processed, statusChangedAt: now, integrationStatus: IntegrationStatus.Successful, lastIntegratedOn: now };
  const moved = await moveTasks(db, tenantId, { id: taskId }, TaskStatus.ExportCompleted, handedOver);
  if (moved) await moveTasks(db, tenantId, { parentTaskId: taskId }, TaskStatus.ExportCompleted, handedOver);
  return moved === 1;
}

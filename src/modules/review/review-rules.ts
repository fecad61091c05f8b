import { ReviewState, TaskAssignmentOrderType, TaskStatus } from '../../domain/enums.js';
import { taskStatusText } from '../tasks/tasks.service.js';

/**
 * The review workflow's rules (DESIGN.md section 4, TaskAssignmentOrderType), as pure functions
 * of a task and its assignments. The reviewer task list applies the same rules in SQL
 * (review.repository.ts, listReviewableTaskIds) so that it can page through them.
 */

/** Statuses in which a task can be reviewed. */
export const REVIEW_STATUSES: readonly number[] = [TaskStatus.ToReview, TaskStatus.InReview];

/** How long a checkout keeps other reviewers out; checking out again extends it. */
export const CHECKOUT_MINUTES = 30;

/** TaskAssignment.reviewState values (domain/enums.ts). */
export { ReviewState };

export interface AssignmentState {
  position: number;
  email: string;
  reviewState: number;
}

export interface AssignedTask {
  taskStatus: number;
  assignmentOrder: number | null;
  /** Any order; emails stored lower-case (tasks.service.ts). */
  assignments: readonly AssignmentState[];
}

export interface Refusal {
  status: 403 | 409;
  title: string;
  detail: string;
}

/** The spec: "only the assigned users can review, in the given order": without an order, the list order holds. */
function orderOf(task: AssignedTask): number {
  return task.assignmentOrder ?? TaskAssignmentOrderType.Sequential;
}

/** Why the user with `email` may not review `task` now, or null when it may. */
export function reviewRefusal(task: AssignedTask, email: string): Refusal | null {
  if (!REVIEW_STATUSES.includes(task.taskStatus)) {
    return { status: 409, title: 'TaskNotInReview', detail: `The task is ${taskStatusText(task.taskStatus)}, not ToReview or InReview` };
  }
  if (task.assignments.length === 0) return null;
  const mine = task.assignments.find((a) => a.email === email.toLowerCase());
  if (!mine) return { status: 403, title: 'NotAssigned', detail: 'The task is assigned to other reviewers' };
  if (mine.reviewState === ReviewState.Reviewed) return { status: 409, title: 'AlreadyReviewed', detail: 'You have already completed your review of this task' };
  if (orderOf(task) === TaskAssignmentOrderType.Sequential) {
    const next = task.assignments
      .filter((a) => a.reviewState === ReviewState.Pending)
      .reduce((first, a) => (a.position < first.position ? a : first));
    if (next.position !== mine.position) return { status: 403, title: 'NotYourTurn', detail: `${next.email} reviews this task before you` };
  }
  return null;
}

/**
 * Whether the reviews recorded so far finish the task's review: Sequential and Parallel need
 * every assigned user, AnyOne the first; a task without assignments needs one review.
 */
export function reviewIsComplete(task: AssignedTask): boolean {
  if (task.assignments.length === 0) return true;
  const reviewed = task.assignments.filter((a) => a.reviewState === ReviewState.Reviewed).length;
  return orderOf(task) === TaskAssignmentOrderType.AnyOne ? reviewed > 0 : reviewed === task.assignments.length;
}

export interface Checkout {
  lastCheckedOutById: number | null;
  lastCheckedOutUntil: Date | null;
}

/** The user holding the task's checkout now, or null when it is free (never taken, released or expired). */
export function checkoutHolder(task: Checkout, now: Date): number | null {
  return task.lastCheckedOutUntil && task.lastCheckedOutUntil > now ? task.lastCheckedOutById : null;
}

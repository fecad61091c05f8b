import { inTransaction, type PrismaClient } from '../../db/prisma.js';
import { SpeakerSource, TaskType } from '../../domain/enums.js';
import { AppError, BadRequestError, ConflictError, NotFoundError, withInternalError } from '../../http/problem.js';
import { findWorkspace } from '../workspaces/workspaces.repository.js';
import {
  clearDefaultSpeaker,
  createTaskSpeaker,
  deleteTaskSpeaker,
  findTaskInWorkspace,
  findTaskSpeaker,
  listTaskSpeakers,
  listWorkspaceSpeakers,
  lockTask,
  lockWorkspace,
  replaceWorkspaceSpeakers,
  updateTaskSpeaker,
} from './speakers.repository.js';
import type {
  TaskSpeakerInput,
  TaskSpeakerModel,
  TaskSpeakersResponse,
  WorkspaceSpeakerInput,
  WorkspaceSpeakersResponse,
} from './speakers.schemas.js';

export interface TaskSpeakerRef {
  taskId: number;
  workspaceId: number;
}

// The 500 details of the spec's error table.
export const RETRIEVING_FAILED = 'Unexpected error while retrieving speakers.';
export const UPSERTING_FAILED = 'Unexpected error while upserting speakers.';
export const DELETING_FAILED = 'Unexpected error while deleting speakers.';

/** An unexpected failure of a speaker operation, answered with the spec's InternalError body; `cause` is logged. */
export class SpeakerOperationError extends AppError {
  constructor(detail: string, cause: unknown) {
    super(500, detail, { title: 'InternalError', cause });
  }
}

/** Client errors pass as they are; anything unexpected becomes the spec's 500 for this operation. */
function orInternalError<T>(detail: string, work: () => Promise<T>): Promise<T> {
  return withInternalError(work, (cause) => new SpeakerOperationError(detail, cause));
}

function requireSpeakerId(speakerId: string | null | undefined): string {
  const id = speakerId?.trim();
  if (!id) throw new BadRequestError('Every speaker must have a valid id.', { title: 'SpeakerIdRequired' });
  return id;
}

function fieldsOf(input: WorkspaceSpeakerInput) {
  return { speakerName: input.speakerName, speakerPrefix: input.speakerPrefix ?? null, speakerSuffix: input.speakerSuffix ?? null };
}

function toTaskSpeakerModel(s: { speakerId: string; speakerName: string; speakerPrefix: string | null; speakerSuffix: string | null; isDefault: boolean }): TaskSpeakerModel {
  return { speakerId: s.speakerId, speakerName: s.speakerName, speakerPrefix: s.speakerPrefix, speakerSuffix: s.speakerSuffix, isDefault: s.isDefault };
}

/** The task of the path, in that workspace of the caller's organization, and a transcript task. */
async function transcriptTask(db: PrismaClient, tenantId: number, ref: TaskSpeakerRef): Promise<number> {
  const task = await findTaskInWorkspace(db, tenantId, ref.taskId, ref.workspaceId);
  if (!task) throw new NotFoundError(`Task ${ref.taskId} was not found in workspace ${ref.workspaceId}`);
  if (task.workspace.taskType !== TaskType.Transcript) {
    throw new BadRequestError(`Task ${ref.taskId} is not a transcript task: only transcripts have speakers`, { title: 'NotATranscriptTask' });
  }
  return task.id;
}

async function transcriptWorkspace(db: PrismaClient, tenantId: number, workspaceId: number): Promise<number> {
  const workspace = await findWorkspace(db, tenantId, workspaceId);
  if (!workspace) throw new NotFoundError(`Workspace ${workspaceId} was not found`);
  if (workspace.taskType !== TaskType.Transcript) {
    throw new BadRequestError(`Workspace ${workspaceId} is not a Transcription workspace: only those have speakers`, { title: 'NotATranscriptWorkspace' });
  }
  return workspace.id;
}

export function getTaskSpeakers(db: PrismaClient, tenantId: number, ref: TaskSpeakerRef): Promise<TaskSpeakersResponse> {
  return orInternalError(RETRIEVING_FAILED, async () => {
    const taskId = await transcriptTask(db, tenantId, ref);
    const speakers = await listTaskSpeakers(db, tenantId, taskId);
    return { speakers: speakers.map((s) => ({ ...toTaskSpeakerModel(s), source: s.source as SpeakerSource })) };
  });
}

/** Adds a speaker to a task (source Task); 409 when the task already has that id. */
export function addTaskSpeaker(db: PrismaClient, tenantId: number, ref: TaskSpeakerRef, input: TaskSpeakerInput): Promise<TaskSpeakerModel> {
  return orInternalError(RETRIEVING_FAILED, async () => {
    const speakerId = requireSpeakerId(input.speakerId);
    const taskId = await transcriptTask(db, tenantId, ref);
    const created = await inTransaction(db, async (tx) => {
      await lockTask(tx, tenantId, taskId);
      if (await findTaskSpeaker(tx, tenantId, taskId, speakerId)) {
        throw new ConflictError(`Task ${taskId} already has a speaker ${speakerId}; update it with PUT`, { title: 'SpeakerAlreadyExists' });
      }
      if (input.isDefault) await clearDefaultSpeaker(tx, tenantId, taskId);
      return createTaskSpeaker(tx, tenantId, taskId, speakerId, { ...fieldsOf(input), isDefault: input.isDefault, source: SpeakerSource.Task });
    });
    return toTaskSpeakerModel(created);
  });
}

/** Replaces the fields of a task's speaker (its source stays); 404 when the task has no such speaker. */
export function changeTaskSpeaker(db: PrismaClient, tenantId: number, ref: TaskSpeakerRef, input: TaskSpeakerInput): Promise<TaskSpeakerModel> {
  return orInternalError(RETRIEVING_FAILED, async () => {
    const speakerId = requireSpeakerId(input.speakerId);
    const taskId = await transcriptTask(db, tenantId, ref);
    const updated = await inTransaction(db, async (tx) => {
      await lockTask(tx, tenantId, taskId);
      const existing = await findTaskSpeaker(tx, tenantId, taskId, speakerId);
      if (!existing) throw new NotFoundError(`Task ${taskId} has no speaker ${speakerId}`);
      if (input.isDefault) await clearDefaultSpeaker(tx, tenantId, taskId);
      return updateTaskSpeaker(tx, tenantId, existing.id, { ...fieldsOf(input), isDefault: input.isDefault });
    });
    return toTaskSpeakerModel(updated);
  });
}

export function removeTaskSpeaker(db: PrismaClient, tenantId: number, ref: TaskSpeakerRef & { speakerId: string }): Promise<void> {
  return orInternalError(DELETING_FAILED, async () => {
    const taskId = await transcriptTask(db, tenantId, ref);
    if (!(await deleteTaskSpeaker(db, tenantId, taskId, ref.speakerId))) throw new NotFoundError(`Task ${taskId} has no speaker ${ref.speakerId}`);
  });
}

async function workspaceSpeakersOf(db: PrismaClient, tenantId: number, workspaceId: number): Promise<WorkspaceSpeakersResponse> {
  const speakers = await listWorkspaceSpeakers(db, tenantId, workspaceId);
  return {
    speakers: speakers.map(({ speakerId, speakerName, speakerPrefix, speakerSuffix }) => ({ speakerId, speakerName, speakerPrefix, speakerSuffix })),
  };
}

export function getWorkspaceSpeakers(db: PrismaClient, tenantId: number, workspaceId: number): Promise<WorkspaceSpeakersResponse> {
  return orInternalError(RETRIEVING_FAILED, async () => workspaceSpeakersOf(db, tenantId, await transcriptWorkspace(db, tenantId, workspaceId)));
}

/** Makes the workspace's speakers exactly the given list: upserted by speakerId, the others removed. */
export function setWorkspaceSpeakers(
  db: PrismaClient,
  tenantId: number,
  workspaceId: number,
  input: WorkspaceSpeakerInput[],
): Promise<WorkspaceSpeakersResponse> {
  return orInternalError(UPSERTING_FAILED, async () => {
    const speakers = input.map((s) => ({ speakerId: requireSpeakerId(s.speakerId), ...fieldsOf(s) }));
    const duplicate = speakers.find((s, index) => speakers.findIndex((other) => other.speakerId === s.speakerId) !== index);
    if (duplicate) {
      throw new BadRequestError(`speakerId ${duplicate.speakerId} appears more than once`, {
        title: 'ValidationError',
        errors: [{ field: 'speakers', message: `duplicate speakerId ${duplicate.speakerId}` }],
      });
    }
    const id = await transcriptWorkspace(db, tenantId, workspaceId);
    await inTransaction(db, async (tx) => {
      await lockWorkspace(tx, tenantId, id);
      await replaceWorkspaceSpeakers(tx, tenantId, id, speakers);
    });
    return workspaceSpeakersOf(db, tenantId, id);
  });
}

import type { Db } from '../../db/prisma.js';
import { SpeakerSource } from '../../domain/enums.js';

/**
 * Speakers belong to a task or a workspace, which belongs to an organization: speaker rows have no
 * tenantId, so each query reaches the organization through its task or workspace.
 */

export interface SpeakerFields {
  speakerName: string;
  speakerPrefix: string | null;
  speakerSuffix: string | null;
}

/** The task, only when it is in that workspace of that organization. */
export function findTaskInWorkspace(db: Db, tenantId: number, taskId: number, workspaceId: number) {
  return db.task.findFirst({
    where: { tenantId, id: taskId, workspaceId },
    select: { id: true, workspace: { select: { taskType: true } } },
  });
}

/** Serialises speaker changes of one task (the single-default rule holds under concurrent requests). */
export async function lockTask(tx: Db, tenantId: number, taskId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Task" WHERE id = ${taskId} AND "tenantId" = ${tenantId} FOR UPDATE`;
}

/** Serialises replacements of one workspace's speakers, so two of them never mix. */
export async function lockWorkspace(tx: Db, tenantId: number, workspaceId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} AND "tenantId" = ${tenantId} FOR UPDATE`;
}

export function listTaskSpeakers(db: Db, tenantId: number, taskId: number) {
  return db.taskSpeaker.findMany({ where: { taskId, task: { tenantId } }, orderBy: { id: 'asc' } });
}

export function findTaskSpeaker(db: Db, tenantId: number, taskId: number, speakerId: string) {
  return db.taskSpeaker.findUnique({ where: { taskId_speakerId: { taskId, speakerId }, task: { tenantId } } });
}

export function clearDefaultSpeaker(tx: Db, tenantId: number, taskId: number) {
  return tx.taskSpeaker.updateMany({ where: { taskId, task: { tenantId }, isDefault: true }, data: { isDefault: false } });
}

/** Adds a speaker to the organization's task (the connect fails when the task is not the organization's). */
export function createTaskSpeaker(
  tx: Db,
  tenantId: number,
  taskId: number,
  speakerId: string,
  fields: SpeakerFields & { isDefault: boolean; source: SpeakerSource },
) {
  return tx.taskSpeaker.create({ data: { task: { connect: { id: taskId, tenantId } }, speakerId, ...fields } });
}

export function updateTaskSpeaker(tx: Db, tenantId: number, id: number, fields: SpeakerFields & { isDefault: boolean }) {
  return tx.taskSpeaker.update({ where: { id, task: { tenantId } }, data: fields });
}

export async function deleteTaskSpeaker(db: Db, tenantId: number, taskId: number, speakerId: string): Promise<boolean> {
  const { count } = await db.taskSpeaker.deleteMany({ where: { taskId, task: { tenantId }, speakerId } });
  return count > 0;
}

export function listWorkspaceSpeakers(db: Db, tenantId: number, workspaceId: number) {
  return db.workspaceSpeaker.findMany({ where: { workspaceId, workspace: { tenantId } }, orderBy: { id: 'asc' } });
}

/** Upserts the given speakers and removes every other speaker of the organization's workspace. */
export async function replaceWorkspaceSpeakers(tx: Db, tenantId: number, workspaceId: number, speakers: Array<SpeakerFields & { speakerId: string }>) {
  await tx.workspaceSpeaker.deleteMany({ where: { workspaceId, workspace: { tenantId }, speakerId: { notIn: speakers.map((s) => s.speakerId) } } });
  for (const { speakerId, ...fields } of speakers) {
    await tx.workspaceSpeaker.upsert({
      where: { workspaceId_speakerId: { workspaceId, speakerId }, workspace: { tenantId } },
      create: { workspace: { connect: { id: workspaceId, tenantId } }, speakerId, ...fields },
      update: fields,
    });
  }
}

/**
 * Copies the workspace's speakers the task does not have yet into it (source Workspace, not
 * default). Speakers are read only from the organization's workspace that holds the task, so the
 * insert by task id that follows writes into that organization's task.
 */
export async function copyWorkspaceSpeakersToTask(tx: Db, tenantId: number, taskId: number, workspaceId: number): Promise<void> {
  const speakers = await tx.workspaceSpeaker.findMany({ where: { workspaceId, workspace: { tenantId, tasks: { some: { id: taskId } } } }, orderBy: { id: 'asc' } });
  await tx.taskSpeaker.createMany({
    data: speakers.map(({ speakerId, speakerName, speakerPrefix, speakerSuffix }) => ({
      taskId,
      speakerId,
      speakerName,
      speakerPrefix,
      speakerSuffix,
      isDefault: false,
      source: SpeakerSource.Workspace,
    })),
    skipDuplicates: true,
  });
}

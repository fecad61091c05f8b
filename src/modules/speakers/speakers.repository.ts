import type { Db } from '../../db/prisma.js';
import { SpeakerSource } from '../../domain/enums.js';

/**
 * Speakers belong to a task or a workspace; the service finds that task or workspace within the
 * caller's organization first, so these queries go by its id.
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
export async function lockTask(tx: Db, taskId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Task" WHERE id = ${taskId} FOR UPDATE`;
}

/** Serialises replacements of one workspace's speakers, so two of them never mix. */
export async function lockWorkspace(tx: Db, workspaceId: number): Promise<void> {
  await tx.$queryRaw`SELECT id FROM "Workspace" WHERE id = ${workspaceId} FOR UPDATE`;
}

export function listTaskSpeakers(db: Db, taskId: number) {
  return db.taskSpeaker.findMany({ where: { taskId }, orderBy: { id: 'asc' } });
}

export function findTaskSpeaker(db: Db, taskId: number, speakerId: string) {
  return db.taskSpeaker.findUnique({ where: { taskId_speakerId: { taskId, speakerId } } });
}

export function clearDefaultSpeaker(tx: Db, taskId: number) {
  return tx.taskSpeaker.updateMany({ where: { taskId, isDefault: true }, data: { isDefault: false } });
}

export function createTaskSpeaker(tx: Db, taskId: number, speakerId: string, fields: SpeakerFields & { isDefault: boolean; source: SpeakerSource }) {
  return tx.taskSpeaker.create({ data: { taskId, speakerId, ...fields } });
}

export function updateTaskSpeaker(tx: Db, id: number, fields: SpeakerFields & { isDefault: boolean }) {
  return tx.taskSpeaker.update({ where: { id }, data: fields });
}

export async function deleteTaskSpeaker(db: Db, taskId: number, speakerId: string): Promise<boolean> {
  const { count } = await db.taskSpeaker.deleteMany({ where: { taskId, speakerId } });
  return count > 0;
}

export function listWorkspaceSpeakers(db: Db, workspaceId: number) {
  return db.workspaceSpeaker.findMany({ where: { workspaceId }, orderBy: { id: 'asc' } });
}

/** Upserts the given speakers and removes every other speaker of the workspace. */
export async function replaceWorkspaceSpeakers(tx: Db, workspaceId: number, speakers: Array<SpeakerFields & { speakerId: string }>) {
  await tx.workspaceSpeaker.deleteMany({ where: { workspaceId, speakerId: { notIn: speakers.map((s) => s.speakerId) } } });
  for (const { speakerId, ...fields } of speakers) {
    await tx.workspaceSpeaker.upsert({
      where: { workspaceId_speakerId: { workspaceId, speakerId } },
      create: { workspaceId, speakerId, ...fields },
      update: fields,
    });
  }
}

/** Copies the workspace's speakers the task does not have yet into it (source Workspace, not default). */
export async function copyWorkspaceSpeakersToTask(tx: Db, taskId: number, workspaceId: number): Promise<void> {
  const speakers = await listWorkspaceSpeakers(tx, workspaceId);
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

import type { Db } from '../../db/prisma.js';
import { livePartsOf } from '../tasks/task-results.repository.js';

const speakerFields = { speakerId: true, speakerName: true, speakerPrefix: true, speakerSuffix: true } as const;
const userName = { select: { name: true, userName: true, email: true } } as const;

/** The task with what its transcript export shows: workspace kind, transcript, speakers and the people named. */
export function loadTranscriptTask(db: Db, tenantId: number, taskId: number) {
  return db.task.findUniqueOrThrow({
    where: { id: taskId, tenantId },
    include: {
      workspace: { select: { taskType: true } },
      transcript: true,
      speakers: { select: speakerFields, orderBy: { id: 'asc' } },
      lastCheckedOutBy: userName,
      lastIntegratedBy: userName,
    },
  });
}
export type TranscriptTask = Awaited<ReturnType<typeof loadTranscriptTask>>;

/** The parts of a split task in part order; parts of an earlier run were marked Deleted by the reprocess. */
export function loadTranscriptParts(db: Db, task: { tenantId: number; id: number }) {
  return db.task.findMany({
    where: livePartsOf(task.tenantId, task.id),
    orderBy: { partNumber: 'asc' },
    include: { transcript: true, speakers: { select: speakerFields, orderBy: { id: 'asc' } } },
  });
}
export type TranscriptPart = Awaited<ReturnType<typeof loadTranscriptParts>>[number];

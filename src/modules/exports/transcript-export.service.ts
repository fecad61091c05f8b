import { z } from 'zod';
import type { Db } from '../../db/prisma.js';
import { TaskType } from '../../domain/enums.js';
import { BadRequestError } from '../../http/problem.js';
import { toIso } from '../../http/schemas.js';
import { type ExportDeps } from './export-deps.js';
import { userDisplayName } from '../../domain/user-names.js';
import { signedFileUrl } from '../../storage/file-links.js';
import { findTaskByRef, type TaskRef } from '../tasks/tasks.service.js';
import { markHandedOver } from '../review/review.service.js';
import { loadTranscriptParts, loadTranscriptTask, type TranscriptPart, type TranscriptTask } from './transcript-export.repository.js';
import { type SimplifiedTranscriptExportResponse, type TranscriptExportResponse, type TranscriptTaskFields } from './transcript-export.schemas.js';
import { transcriptAnnotation, transcriptItem, type TranscriptAnnotation, type TranscriptItem, type TranscriptSpeaker } from '../../domain/transcript-entities.js';

type Deps = ExportDeps;

const storedItems = z.array(transcriptItem);
const storedAnnotations = z.array(transcriptAnnotation);

/** A task's transcript, or its parts' joined into one when it was split. */
interface JoinedTranscript {
  totalTimeInSeconds: number;
  items: TranscriptItem[];
  annotations: TranscriptAnnotation[];
  speakers: TranscriptSpeaker[];
}


function shiftItem(item: TranscriptItem, offset: number): TranscriptItem {
  const shiftWords = (words: TranscriptItem['displayWords']) => words.map((w) => ({ ...w, offsetInSeconds: round(w.offsetInSeconds + offset) }));
  return {
    ...item,
    start: round(item.start + offset),
    end: round(item.end + offset),
    displayWords: shiftWords(item.displayWords),
    originalWords: shiftWords(item.originalWords),
  };
}

/**
 * The parts' transcripts as one recording. Parts are consecutive stretches of the original (cut
 * at silences, no gaps), so a part starts where the ones before it end: at the sum of their
 * durations. Each part's speakers join the list the first time their id appears.
 */
function joinParts(parts: TranscriptPart[], ownSpeakers: TranscriptSpeaker[]): JoinedTranscript {
  const joined: JoinedTranscript = { totalTimeInSeconds: 0, items: [], annotations: [], speakers: [...ownSpeakers] };
  const speakerIds = new Set(ownSpeakers.map((s) => s.speakerId));
  for (const part of parts) {
    const offset = joined.totalTimeInSeconds;
    if (part.transcript) {
      joined.items.push(...storedItems.parse(part.transcript.items).map((item) => shiftItem(item, offset)));
      for (const annotation of storedAnnotations.parse(part.transcript.annotations)) {
        joined.annotations.push({ ...annotation, start: round(annotation.start + offset), end: round(annotation.end + offset) });
      }
    }
    for (const speaker of part.speakers) {
      if (!speakerIds.has(speaker.speakerId)) joined.speakers.push(speaker);
      speakerIds.add(speaker.speakerId);
    }
    joined.totalTimeInSeconds = round(offset + (part.durationSeconds ?? part.transcript?.totalTimeInSeconds ?? 0));
  }
  return joined;
}

async function transcriptOf(db: Db, task: TranscriptTask): Promise<JoinedTranscript> {
  if (task.transcript) {
    return {
      totalTimeInSeconds: task.transcript.totalTimeInSeconds,
      items: storedItems.parse(task.transcript.items),
      annotations: storedAnnotations.parse(task.transcript.annotations),
      speakers: task.speakers,
    };
  }
  const parts = await loadTranscriptParts(db, task);
  if (parts.length) return joinParts(parts, task.speakers);
  // Not recognized yet: an empty transcript of the recording.
  return { totalTimeInSeconds: task.durationSeconds ?? 0, items: [], annotations: [], speakers: task.speakers };
}

function taskFields(deps: Deps, task: TranscriptTask, totalTimeInSeconds: number): TranscriptTaskFields {
  const originalFileUrl = signedFileUrl(deps, task.sourceBlobKey);
  return {
    taskId: task.id,
    workspaceId: task.workspaceId,
    batchId: task.batchId,
    taskNumber: task.taskNumber,
    originalFileUrl,
    externalId: task.externalId,
    displayName: task.displayName,
    description: task.description,
    totalTimeInSeconds,
    lastCheckoutByUserName: userDisplayName(task.lastCheckedOutBy),
    lastCheckedOutBy: task.lastCheckedOutById,
    lastCheckedOutUntil: toIso(task.lastCheckedOutUntil),
    lastIntegratedBy: task.lastIntegratedById,
    lastIntegratedByUserName: userDisplayName(task.lastIntegratedBy),
    lastIntegratedOn: toIso(task.lastIntegratedOn),
    metadata: task.metadata as Record<string, string>,
    failureReason: task.failureReason,
  };
}

async function exportedTranscript(deps: Deps, tenantId: number, ref: TaskRef) {
  const found = await findTaskByRef(deps.prisma, tenantId, ref);
  let task = await loadTranscriptTask(deps.prisma, tenantId, found.id);
  if (task.workspace.taskType !== TaskType.Transcript) {
    throw new BadRequestError(`Task ${task.id} is not a transcript task: use GetExportData/${task.id}`, { title: 'NotATranscriptTask' });
  }
  // Reading the export of a reviewed task is its hand-over: the response already shows it.
  if (await markHandedOver(deps.prisma, tenantId, task.id)) task = await loadTranscriptTask(deps.prisma, tenantId, task.id);
  return { task, transcript: await transcriptOf(deps.prisma, task) };
}

export async function getTranscriptExport(deps: Deps, tenantId: number, ref: TaskRef): Promise<TranscriptExportResponse> {
  const { task, transcript } = await exportedTranscript(deps, tenantId, ref);
  return {
    ...taskFields(deps, task, transcript.totalTimeInSeconds),
    transcript: { transcripts: transcript.items, speakers: transcript.speakers, annotations: transcript.annotations },
  };
}

export async function getSimplifiedTranscriptExport(deps: Deps, tenantId: number, ref: TaskRef): Promise<SimplifiedTranscriptExportResponse> {
  const { task, transcript } = await exportedTranscript(deps, tenantId, ref);
  return {
    ...taskFields(deps, task, transcript.totalTimeInSeconds),
    transcript: {
      transcripts: transcript.items.map(({ speakerId, start, end, duration, confidence, displayText }) => ({ speakerId, start, end, duration, confidence, displayText })),
      speakers: transcript.speakers,
    },
  };
}

/** Milliseconds, as the model stores them: sums of binary fractions would show 1.2300000000000002. */
function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

import type { AppDeps } from '../../app-deps.js';
import { inTransaction, type Prisma } from '../../db/prisma.js';
import { TaskType } from '../../domain/enums.js';
import { BadRequestError, ConflictError, invalidField, NotFoundError } from '../../http/problem.js';
import { addFields, applyCellEdits, applyKeyValueEdits } from './entity-edits.js';
import { findChunks, findTaskSpeakers, findTranscript, saveChunkEdits, saveTranscriptEdits } from './review.repository.js';
import type { EntityEditsBody, ReviewChunk, ReviewTranscript, TranscriptEditsBody } from './review.schemas.js';
import { assertHoldsCheckout, reviewableTask } from './review.service.js';
import { applyAnnotationEdits, applySegmentEdits } from './transcript-edits.js';
import { reviewChunkOf, reviewTranscriptOf, storedTranscript } from './review-views.js';
import type { Reviewer } from './reviewer.js';

type Deps = Pick<AppDeps, 'prisma'>;

const staleChunk = (chunkNumber: number) =>
  new ConflictError(`Chunk ${chunkNumber} was saved meanwhile; reload it and edit again`, { title: 'StaleChunk' });

/**
 * Edits key-values and table cells of a document task's entities and adds fields, chunk by chunk, all or none. A chunk whose
 * values change gets a new version and records the reviewer as lastModifiedBy/On.
 */
export async function editEntities(deps: Deps, reviewer: Reviewer, taskId: number, body: EntityEditsBody): Promise<{ chunks: ReviewChunk[] }> {
  const now = new Date();
  const task = await reviewableTask(deps.prisma, reviewer, taskId);
  assertHoldsCheckout(reviewer, task, now);
  if (task.workspace.taskType === TaskType.Transcript) {
    throw new BadRequestError('A transcript task has no entities: edit its transcript', { title: 'NotADocumentTask' });
  }
  const rows = new Map((await findChunks(deps.prisma, reviewer.tenantId, task.id)).map((row) => [row.chunkNumber, row]));
  const seen = new Set<number>();
  const changes = body.chunks.map((edit, i) => {
    const row = rows.get(edit.chunkNumber);
    if (!row) throw invalidField(`chunks.${i}.chunkNumber`, `the task has no chunk ${edit.chunkNumber}`);
    if (seen.has(edit.chunkNumber)) throw invalidField(`chunks.${i}.chunkNumber`, `chunk ${edit.chunkNumber} is listed twice`);
    seen.add(edit.chunkNumber);
    if (edit.version !== undefined && edit.version !== row.version) throw staleChunk(edit.chunkNumber);
    const by = { userId: reviewer.userId, at: now };
    const page = { pageNumber: row.pageNumber, chunkNumber: row.chunkNumber };
    const edited = applyKeyValueEdits(row.entities, edit.edits, page, by, `chunks.${i}.edits`);
    const cells = applyCellEdits(edited ?? row.entities, edit.cellEdits ?? [], by, `chunks.${i}.cellEdits`) ?? edited;
    const added = addFields(cells ?? row.entities, edit.addedFields ?? [], page, by, `chunks.${i}.addedFields`);
    return { row, entities: added ?? cells };
  });
  await inTransaction(deps.prisma, async (tx) => {
    for (const { row, entities } of changes) {
      if (entities && !(await saveChunkEdits(tx, reviewer.tenantId, row, entities, reviewer.userId, now))) throw staleChunk(row.chunkNumber);
    }
  });
  const saved = await findChunks(deps.prisma, reviewer.tenantId, task.id);
  return { chunks: saved.filter((row) => seen.has(row.chunkNumber)).map(reviewChunkOf) };
}

/** Edits a transcript task's segments (text, speaker) and annotations; any change gives the transcript a new version. */
export async function editTranscript(deps: Deps, reviewer: Reviewer, taskId: number, body: TranscriptEditsBody): Promise<ReviewTranscript> {
  const now = new Date();
  const task = await reviewableTask(deps.prisma, reviewer, taskId);
  assertHoldsCheckout(reviewer, task, now);
  if (task.workspace.taskType !== TaskType.Transcript) {
    throw new BadRequestError('Only transcript tasks have a transcript: edit the entities', { title: 'NotATranscriptTask' });
  }
  const [row, speakers] = await Promise.all([findTranscript(deps.prisma, reviewer.tenantId, task.id), findTaskSpeakers(deps.prisma, reviewer.tenantId, task.id)]);
  if (!row) throw new NotFoundError('The task has no transcript');
  const stale = new ConflictError('The transcript was saved meanwhile; reload it and edit again', { title: 'StaleTranscript' });
  if (body.version !== undefined && body.version !== row.version) throw stale;
  const stored = storedTranscript(row);
  const items = applySegmentEdits(stored.items, body.segments, new Set(speakers.map((s) => s.speakerId)));
  const annotations = applyAnnotationEdits(stored.annotations, body, { userId: reviewer.userId, userName: reviewer.displayName, at: now }, row.totalTimeInSeconds);
  const edited = { items, annotations };
  if (JSON.stringify(edited) === JSON.stringify(stored)) return reviewTranscriptOf(row, stored, speakers);
  const json = (value: unknown) => value as Prisma.InputJsonValue;
  if (!(await saveTranscriptEdits(deps.prisma, reviewer.tenantId, row, json(items), json(annotations)))) throw stale;
  return reviewTranscriptOf({ ...row, version: row.version + 1 }, edited, speakers);
}

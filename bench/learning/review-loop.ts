/**
 * The vendor-profile loop through the HTTP API, as an integrating system and a reviewer drive it:
 * submit a document, wait for it to be recognised, read its export, correct it through the
 * reviewer API (edit what is wrong, fill in what is missing, add what was not reported) and
 * complete the review. Shared by test/vendor-profiles.test.ts and bench/learning.bench.ts.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { FIELD_KINDS } from '../../src/models/vendor-profiles/vendor-profile.js';
import { sameValue } from '../../src/models/vendor-profiles/vendor-profile-text.js';
import type { Entity } from '../../src/domain/entities.js';
import { SCORED_FIELDS, type ExpectedValue, type ScoredField } from './vendor-documents.js';
import { PROCESSING_ENDED_STATUSES } from '../../src/domain/enums.js';

export const EXTERNAL = '/api/v1.0/external';
export const REVIEW = '/api/v1.0/review';

type Headers = { authorization: string };

/** How often a 503 (the api's back-pressure) is waited out before the call counts as failed. */
const OVERLOAD_RETRIES = 20;

/**
 * One request, as an integrator makes it: a 503 is retried after its Retry-After (the bench
 * generates documents and runs the workers in the app's process, which can hold its event loop
 * past the back-pressure bound); any other answer from 300 up is a failure.
 */
export async function call(app: FastifyInstance, request: InjectOptions, what: string): Promise<LightMyRequestResponse> {
  for (let attempt = 0; ; attempt += 1) {
    const res = await app.inject(request);
    if (res.statusCode === 503 && attempt < OVERLOAD_RETRIES) {
      await new Promise((resolve) => setTimeout(resolve, Number(res.headers['retry-after'] ?? 1) * 1000));
      continue;
    }
    if (res.statusCode >= 300) throw new Error(`${what}: ${res.statusCode} ${res.body}`);
    return res;
  }
}

/** Submits the document at `url` to the workspace; returns the task id. */
export async function submit(app: FastifyInstance, headers: Headers, workspaceId: number, url: string): Promise<number> {
  const res = await call(app, { method: 'POST', url: `${EXTERNAL}/sdtask/process`, headers, payload: { workspaceId, context: { url } } }, 'create task');
  return res.json().taskId as number;
}

/** Polls the task's status through the API until recognition ends; returns the status. */
export async function waitRecognized(app: FastifyInstance, headers: Headers, taskId: number, timeoutMs = 300_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await call(app, { method: 'GET', url: `${EXTERNAL}/sdtask/status?taskId=${taskId}`, headers }, 'status');
    const status = res.json().taskStatus as number;
    if (PROCESSING_ENDED_STATUSES.has(status)) return status;
    if (Date.now() > deadline) throw new Error(`task ${taskId} still in status ${status} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The task's typed fields as its export gives them (found ones; a field not detected is absent). */
export async function exportedFields(app: FastifyInstance, headers: Headers, taskId: number): Promise<Map<string, Entity>> {
  const res = await call(app, { method: 'GET', url: `${EXTERNAL}/sdtask/GetExportData/${taskId}`, headers }, 'export');
  const fields = new Map<string, Entity>();
  for (const chunk of res.json().chunks as Array<{ entities: Entity[] }>) {
    for (const e of chunk.entities) if (e.type === 'Field' && !e.notDetected && !fields.has(e.category)) fields.set(e.category, e);
  }
  return fields;
}

/** The value an entity gives (its normalised form when it has one). */
export function entityValue(entity: Entity | undefined): string | undefined {
  const kv = entity?.keyValues[0];
  return kv ? (kv.contentNormalized ?? kv.content) : undefined;
}

export function isRight(field: ScoredField, entity: Entity | undefined, expected: ExpectedValue): boolean {
  const value = entityValue(entity);
  return value !== undefined && sameValue(FIELD_KINDS[field], value, expected.normalized);
}

/** Per scored field: right or not. */
export function judge(fields: ReadonlyMap<string, Entity>, expected: Record<ScoredField, ExpectedValue>): Record<ScoredField, boolean> {
  return Object.fromEntries(SCORED_FIELDS.map((f) => [f, isRight(f, fields.get(f), expected[f])])) as Record<ScoredField, boolean>;
}

export interface ReviewOutcome {
  /** Fields the reviewer changed, filled in or added. */
  corrected: ScoredField[];
}

/**
 * Reviews the task as a careful reviewer would: checks it out, corrects every scored field whose
 * value is wrong (edit), missing (fill in the not-detected entity) or not reported (add it), and
 * completes the review.
 */
export async function reviewAndCorrect(app: FastifyInstance, reviewer: Headers, taskId: number, expected: Record<ScoredField, ExpectedValue>): Promise<ReviewOutcome> {
  await call(app, { method: 'POST', url: `${REVIEW}/tasks/${taskId}/checkout`, headers: reviewer }, 'checkout');
  const detail = (await call(app, { method: 'GET', url: `${REVIEW}/tasks/${taskId}`, headers: reviewer }, 'review task')).json() as {
    chunks: Array<{ chunkNumber: number; version: number; entities: Entity[] }>;
  };
  const corrected: ScoredField[] = [];
  const edits = new Map<number, { chunkNumber: number; version: number; edits: unknown[]; addedFields: unknown[] }>();
  const editsOf = (chunk: { chunkNumber: number; version: number }) => {
    if (!edits.has(chunk.chunkNumber)) edits.set(chunk.chunkNumber, { chunkNumber: chunk.chunkNumber, version: chunk.version, edits: [], addedFields: [] });
    return edits.get(chunk.chunkNumber)!;
  };
  for (const field of SCORED_FIELDS) {
    const want = expected[field];
    const found = detail.chunks.flatMap((c) => c.entities.map((e, entityIndex) => ({ chunk: c, e, entityIndex }))).find(({ e }) => e.type === 'Field' && e.category === field);
    if (found && !found.e.notDetected && isRight(field, found.e, want)) continue;
    corrected.push(field);
    if (found) editsOf(found.chunk).edits.push({ entityIndex: found.entityIndex, keyValueIndex: 0, content: want.content, contentNormalized: want.normalized });
    else editsOf(detail.chunks[0]!).addedFields.push({ category: field, content: want.content, contentNormalized: want.normalized });
  }
  if (edits.size) {
    const chunks = [...edits.values()].map((c) => ({ chunkNumber: c.chunkNumber, version: c.version, edits: c.edits, ...(c.addedFields.length ? { addedFields: c.addedFields } : {}) }));
    await call(app, { method: 'PATCH', url: `${REVIEW}/tasks/${taskId}/entities`, headers: reviewer, payload: { chunks } }, 'edit entities');
  }
  await call(app, { method: 'POST', url: `${REVIEW}/tasks/${taskId}/complete`, headers: reviewer }, 'complete');
  return { corrected };
}

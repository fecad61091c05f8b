import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { SpeakerSource, UserStatus, type TaskAssignmentOrderType } from '../../src/domain/enums.js';
import { compactEntities } from '../../src/domain/stored-entities.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import { layoutModel } from '../../src/models/page/layout.js';
import type { TranscriptItem } from '../../src/models/model.js';
import { hashSecret } from '../../src/modules/auth/secret-hash.js';
import { insertTask } from './tasks.js';
import { documentResult, modelInput, textPdf } from '../models/document-fixtures.js';
import type { TestContext, TestTenant } from './context.js';
import { REVIEW_PREFIX } from '../../src/modules/review/review.routes.js';

export const PASSWORD = 'correct horse battery staple';

export interface TestUser {
  id: number;
  email: string;
  name: string;
}

/** A user as accepting an invitation leaves it: Active, with a name and a password. */
export async function createUser(
  ctx: Pick<TestContext, 'prisma'>,
  t: Pick<TestTenant, 'tenantId'>,
  options: { roleName?: string; status?: string; email?: string; password?: string } = {},
): Promise<TestUser> {
  const email = options.email ?? `reviewer-${randomUUID()}@example.com`;
  const name = `User ${email.split('@')[0]}`;
  const user = await ctx.prisma.user.create({
    data: {
      tenantId: t.tenantId,
      email,
      name,
      roleName: options.roleName ?? 'Reviewer',
      status: options.status ?? UserStatus.Active,
      emailConfirmed: true,
      passwordHash: await hashSecret(options.password ?? PASSWORD),
    },
  });
  return { id: user.id, email, name };
}

export async function login(app: FastifyInstance, email: string, password = PASSWORD, tenantId?: number) {
  return app.inject({ method: 'POST', url: `${REVIEW_PREFIX}/login`, payload: { email, password, ...(tenantId ? { tenantId } : {}) } });
}

/** Bearer headers of a logged-in user. */
export async function userHeaders(app: FastifyInstance, user: { email: string }, tenantId?: number): Promise<{ authorization: string }> {
  const res = await login(app, user.email, PASSWORD, tenantId);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return { authorization: `Bearer ${res.json().access_token}` };
}

/** What the detect stage stores for a one-page invoice (the Layout model on a generated PDF), made once. */
let detected: Promise<{ pdf: Buffer; chunks: ReturnType<typeof documentResult>['chunks'] }> | undefined;

export function invoiceDetection() {
  detected ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'review-'));
    const file = path.join(dir, 'invoice.pdf');
    const lines = ['Invoice number: INV-001', 'Total: 12.50 EUR', 'Thank you for your business'];
    await writeFile(file, await textPdf([lines.map((text, i) => ({ text, x: 50, y: 60 + 30 * i }))]));
    const { chunks } = documentResult(await layoutModel(await modelInput(file, 'pdf', [1])));
    return { pdf: await readFile(file), chunks };
  })();
  return detected;
}

export interface SeedOptions {
  assignedUsers?: string[];
  order?: TaskAssignmentOrderType;
  data?: Partial<Prisma.TaskUncheckedCreateInput>;
}

/** A task to review, with the assignments `options` asks for. */
function insertReviewTask(ctx: Pick<TestContext, 'prisma'>, t: Pick<TestTenant, 'tenantId' | 'defaultWorkspaceId'>, options: SeedOptions, data: Partial<Prisma.TaskUncheckedCreateInput>) {
  return insertTask(ctx.prisma, t, {
    displayName: `Review ${randomUUID().slice(0, 8)}`,
    request: { context: { url: 'http://example.com/file' } },
    assignmentOrder: options.order ?? null,
    ...(options.assignedUsers
      ? { assignments: { create: options.assignedUsers.map((email, position) => ({ position, email: email.toLowerCase() })) } }
      : {}),
    ...data,
    ...options.data,
  });
}

/** A detected invoice in ToReview: source PDF stored, one chunk whose entities include KeyValues "Invoice number" and "Total". */
export async function seedDocumentTask(ctx: TestContext, t: TestTenant, options: SeedOptions = {}) {
  const { pdf, chunks } = await invoiceDetection();
  return seedDetectedTask(ctx, t, { source: pdf, mimeType: 'application/pdf', chunks }, options);
}

/** A task in ToReview with a stored source file and the chunks a model detected in it, stored as detection stores them (compacted). */
export async function seedDetectedTask(
  ctx: Pick<TestContext, 'prisma' | 'blobs'>,
  t: Pick<TestTenant, 'tenantId' | 'defaultWorkspaceId'>,
  detection: { source: Buffer; mimeType: string; chunks: ReturnType<typeof documentResult>['chunks'] },
  options: SeedOptions = {},
) {
  const { source, mimeType, chunks } = detection;
  const sourceBlobKey = `tenants/${t.tenantId}/tasks/review-${randomUUID()}/source`;
  await ctx.blobs.put(sourceBlobKey, source);
  const task = await insertReviewTask(ctx, t, options, { sourceBlobKey, sourceMimeType: mimeType, totalPages: 1 });
  await ctx.prisma.documentChunk.createMany({
    data: chunks.map((chunk, index) => ({
      taskId: task.id,
      chunkNumber: index + 1,
      pageNumber: chunk.pageNumber,
      averageConfidence: chunk.averageConfidence,
      entities: compactEntities(chunk.entities) as Prisma.InputJsonValue,
    })),
  });
  return task;
}

/** Index of the first entity of a category in the seeded invoice's chunk. */
export async function entityIndex(category: string): Promise<number> {
  const { chunks } = await invoiceDetection();
  const index = chunks[0]!.entities.findIndex((e) => e.category === category);
  if (index < 0) throw new Error(`no ${category} entity in the invoice`);
  return index;
}

function segment(speakerId: string, start: number, words: string[]): TranscriptItem {
  const displayWords = words.map((text, i) => ({ text, offsetInSeconds: start + i * 0.5, durationInSeconds: 0.4, confidence: 0.8 }));
  const end = start + words.length * 0.5;
  return { speakerId, start, end, duration: end - start, confidence: 0.8, displayText: words.join(' '), displayWords, originalWords: displayWords };
}

/** A recognized 10-second recording in ToReview: two segments, speakers "speaker-1" (default) and "agent". */
export async function seedTranscriptTask(ctx: TestContext, t: TestTenant, options: SeedOptions = {}) {
  const task = await insertReviewTask(ctx, t, options, { durationSeconds: 10, totalPages: 1 });
  await ctx.prisma.transcript.create({
    data: {
      taskId: task.id,
      totalTimeInSeconds: 10,
      items: [segment('speaker-1', 0.5, ['hello', 'there']), segment('speaker-1', 3, ['how', 'can', 'I', 'help'])] as unknown as Prisma.InputJsonValue,
    },
  });
  await ctx.prisma.taskSpeaker.createMany({
    data: [
      { taskId: task.id, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected },
      { taskId: task.id, speakerId: 'agent', speakerName: 'Agent', source: SpeakerSource.Task },
    ],
  });
  return task;
}

/** The ids of the tasks the review API lists to this reviewer (first 100). */
export async function listedIds(app: Pick<FastifyInstance, 'inject'>, headers: { authorization: string }): Promise<number[]> {
  const res = await app.inject({ method: 'GET', url: `${REVIEW_PREFIX}/tasks?pageSize=100`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().items.map((task: { taskId: number }) => task.taskId);
}

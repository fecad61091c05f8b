import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpeakerSource, TaskStatus, TemplateType } from '../../src/domain/enums.js';
import type { Prisma } from '../../src/generated/prisma/client.js';
import type { TranscriptItem } from '../../src/models/model.js';
import { createWorkspace } from '../../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from '../support/context.js';
import { insertCall } from '../support/tasks.js';
import { expectProblem } from '../support/problem.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const base = '/api/v1.0/external/sdtask/GetExportData/Transcript';

function word(text: string, offsetInSeconds: number, durationInSeconds: number, confidence: number) {
  return { text, offsetInSeconds, durationInSeconds, confidence };
}

function item(speakerId: string, words: ReturnType<typeof word>[]): TranscriptItem {
  const start = words[0]!.offsetInSeconds;
  const end = words.at(-1)!.offsetInSeconds + words.at(-1)!.durationInSeconds;
  return {
    speakerId,
    start,
    end,
    duration: end - start,
    confidence: words.reduce((sum, w) => sum + w.confidence, 0) / words.length,
    displayText: words.map((w) => w.text).join(' '),
    displayWords: words,
    originalWords: words,
  };
}

function get(t: TestTenant, path: string) {
  return ctx.app.inject({ method: 'GET', url: `${base}${path}`, headers: t.headers });
}

describe('transcript export', () => {
  let t: TestTenant;
  let taskId: number;
  const externalId = `call-${randomUUID()}`;
  const items = [
    item('speaker-1', [word('hello', 0.5, 0.4, 0.9), word('there', 0.9, 0.3, 0.7)]),
    item('agent', [word('how', 2.5, 0.2, 0.8), word('can', 2.7, 0.2, 0.6), word('I', 2.9, 0.1, 1), word('help', 3, 0.4, 0.5)]),
  ];

  beforeAll(async () => {
    t = await createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
    const reviewer = await ctx.prisma.user.create({ data: { tenantId: t.tenantId, email: 'rev@example.com', name: 'Rita Reviewer', roleName: 'Reviewer' } });
    const integrator = await ctx.prisma.user.create({ data: { tenantId: t.tenantId, email: 'int@example.com', roleName: 'Manager' } });
    const sourceBlobKey = `tenants/${t.tenantId}/tasks/export-test-${randomUUID()}/source`;
    await ctx.blobs.put(sourceBlobKey, Buffer.from('RIFF-not-really-audio'));
    const task = await insertCall(ctx.prisma, t, {
      externalId,
      description: 'Ticket 42',
      metadata: { ticket: '42' },
      sourceBlobKey,
      durationSeconds: 4,
      lastCheckedOutById: reviewer.id,
      lastCheckedOutUntil: new Date('2026-01-02T03:04:05Z'),
      lastIntegratedById: integrator.id,
      lastIntegratedOn: new Date('2026-01-03T00:00:00Z'),
    });
    taskId = task.id;
    await ctx.prisma.transcript.create({
      data: {
        taskId,
        totalTimeInSeconds: 4.25,
        items: items as unknown as Prisma.InputJsonValue,
        annotations: [
          {
            uniqueId: 'n1',
            content: 'customer is upset',
            start: 2.5,
            end: 3.4,
            createdByUserName: 'Rita Reviewer',
            createdBy: reviewer.id,
            createdOn: '2026-01-02T03:00:00.000Z',
            modifiedByUserName: null,
            modifiedBy: null,
            modifiedOn: null,
          },
          { uniqueId: 'n2', content: 'greeting', start: 0.5, end: 1.2 },
        ],
      },
    });
    await ctx.prisma.taskSpeaker.createMany({
      data: [
        { taskId, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected },
        { taskId, speakerId: 'agent', speakerName: 'Agent', speakerPrefix: 'Mr.', isDefault: false, source: SpeakerSource.Task },
      ],
    });
  });

  it('exports items with words, speakers, annotations and the task fields', async () => {
    const res = await get(t, `/${taskId}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      taskId,
      workspaceId: t.defaultWorkspaceId,
      batchId: null,
      externalId,
      displayName: 'Support call',
      description: 'Ticket 42',
      totalTimeInSeconds: 4.25,
      lastCheckoutByUserName: 'Rita Reviewer',
      lastCheckedOutUntil: '2026-01-02T03:04:05.000Z',
      lastIntegratedByUserName: 'int@example.com',
      lastIntegratedOn: '2026-01-03T00:00:00.000Z',
      metadata: { ticket: '42' },
    });
    expect(body.lastCheckedOutBy).toEqual(expect.any(Number));
    expect(body.lastIntegratedBy).toEqual(expect.any(Number));
    expect(body.transcript.transcripts).toEqual(items);
    expect(body.transcript.speakers).toEqual([
      { speakerId: 'speaker-1', speakerName: 'Speaker 1', speakerPrefix: null, speakerSuffix: null },
      { speakerId: 'agent', speakerName: 'Agent', speakerPrefix: 'Mr.', speakerSuffix: null },
    ]);
    expect(body.transcript.annotations).toEqual([
      {
        uniqueId: 'n1',
        content: 'customer is upset',
        start: 2.5,
        end: 3.4,
        createdByUserName: 'Rita Reviewer',
        createdBy: body.lastCheckedOutBy,
        createdOn: '2026-01-02T03:00:00.000Z',
        modifiedByUserName: null,
        modifiedBy: null,
        modifiedOn: null,
      },
      {
        uniqueId: 'n2',
        content: 'greeting',
        start: 0.5,
        end: 1.2,
        createdByUserName: null,
        createdBy: null,
        createdOn: null,
        modifiedByUserName: null,
        modifiedBy: null,
        modifiedOn: null,
      },
    ]);
    // The original file through its signed link.
    const file = await ctx.app.inject({ method: 'GET', url: new URL(body.originalFileUrl).pathname + new URL(body.originalFileUrl).search });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('RIFF-not-really-audio');
  });

  it('exports the simplified form without words and annotations', async () => {
    const res = await get(t, `/${taskId}/simplified`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ taskId, externalId, totalTimeInSeconds: 4.25, metadata: { ticket: '42' } });
    expect(Object.keys(body.transcript).sort()).toEqual(['speakers', 'transcripts']);
    expect(body.transcript.transcripts).toEqual(
      items.map(({ speakerId, start, end, duration, confidence, displayText }) => ({ speakerId, start, end, duration, confidence, displayText })),
    );
    expect(body.transcript.speakers).toHaveLength(2);
  });

  it('finds the task by taskid, by externalId, or by both naming the same task', async () => {
    const full = (await get(t, `/${taskId}`)).json();
    const { originalFileUrl: _link, ...expected } = full;
    for (const path of [`/${taskId}?externalId=${externalId}`, `?externalId=${externalId}`, `?taskid=${taskId}`, `?taskId=${taskId}&externalid=${externalId}`]) {
      const res = await get(t, path);
      expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject(expected);
    }
    const simplified = await get(t, `/simplified?externalId=${externalId}`);
    expect(simplified.statusCode, simplified.body).toBe(200);
    expect(simplified.json().transcript.transcripts[0]).not.toHaveProperty('originalWords');
  });

  it('rejects missing ids (400), ids naming different tasks, unknown ids and other organizations (404)', async () => {
    expectProblem(await get(t, ''), 400);
    expectProblem(await get(t, '/simplified'), 400);
    expectProblem(await get(t, '/abc'), 400);
    const other = await insertCall(ctx.prisma, t, { externalId: `other-${randomUUID()}` });
    expectProblem(await get(t, `/${taskId}?externalId=${other.externalId}`), 404);
    expectProblem(await get(t, `/${taskId + 100000}`), 404);
    expectProblem(await get(t, `?externalId=nope-${randomUUID()}`), 404);
    const stranger = await createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
    for (const path of [`/${taskId}`, `/${taskId}/simplified`, `?externalId=${externalId}`]) expectProblem(await get(stranger, path), 404);
  });

  it('refuses document tasks and exports a task not recognized yet as an empty transcript', async () => {
    const layout = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'docs', templateType: TemplateType.Layout })).workspaceId;
    const documentTask = await insertCall(ctx.prisma, t, { workspaceId: layout });
    expectProblem(await get(t, `/${documentTask.id}`), 400, 'NotATranscriptTask');

    const queued = await insertCall(ctx.prisma, t, { taskStatus: TaskStatus.QueuedForPreProcessing });
    const body = (await get(t, `/${queued.id}`)).json();
    expect(body).toMatchObject({ originalFileUrl: null, totalTimeInSeconds: 0, transcript: { transcripts: [], speakers: [], annotations: [] } });
  });
});

describe('transcript export of a split task', () => {
  it('joins the parts in part order, their times shifted by the length of the parts before them', async () => {
    const t = await createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
    const original = await insertCall(ctx.prisma, t, { taskStatus: TaskStatus.Split, durationSeconds: 900.5 });
    const part = async (partNumber: number, durationSeconds: number, taskStatus: TaskStatus = TaskStatus.ToReview) =>
      insertCall(ctx.prisma, t, { parentTaskId: original.id, partNumber, durationSeconds, taskStatus, displayName: `part ${partNumber}` });
    // Created out of order, plus a part of an earlier run that a reprocess marked Deleted.
    const second = await part(2, 300);
    const first = await part(1, 600.5);
    const stale = await part(1, 42, TaskStatus.Deleted);
    const transcript = (taskId: number, totalTimeInSeconds: number, parts: TranscriptItem[], annotations: unknown[] = []) =>
      ctx.prisma.transcript.create({
        data: { taskId, totalTimeInSeconds, items: parts as unknown as Prisma.InputJsonValue, annotations: annotations as Prisma.InputJsonValue },
      });
    await transcript(first.id, 600.5, [item('speaker-1', [word('first', 1, 0.5, 0.9)])]);
    await transcript(second.id, 300, [item('speaker-1', [word('second', 0.2, 0.4, 0.8), word('part', 0.6, 0.3, 0.6)])], [
      { uniqueId: 'a', content: 'note', start: 0.2, end: 0.9 },
    ]);
    await transcript(stale.id, 42, [item('speaker-1', [word('stale', 1, 1, 1)])]);
    await ctx.prisma.taskSpeaker.createMany({
      data: [
        { taskId: first.id, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected },
        { taskId: second.id, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected },
        { taskId: second.id, speakerId: 'guest', speakerName: 'Guest', isDefault: false, source: SpeakerSource.Task },
      ],
    });

    const res = await get(t, `/${original.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ taskId: original.id, totalTimeInSeconds: 900.5 });
    expect(body.transcript.transcripts.map((i: TranscriptItem) => [i.displayText, i.start, i.end])).toEqual([
      ['first', 1, 1.5],
      ['second part', 600.7, 601.4],
    ]);
    expect(body.transcript.transcripts[1].originalWords).toEqual([word('second', 600.7, 0.4, 0.8), word('part', 601.1, 0.3, 0.6)]);
    expect(body.transcript.transcripts[1].displayWords).toEqual(body.transcript.transcripts[1].originalWords);
    expect(body.transcript.annotations).toMatchObject([{ uniqueId: 'a', start: 600.7, end: 601.4 }]);
    expect(body.transcript.speakers.map((s: { speakerId: string }) => s.speakerId)).toEqual(['speaker-1', 'guest']);

    // A part on its own keeps its own times.
    const alone = (await get(t, `/${second.id}/simplified`)).json();
    expect(alone.transcript.transcripts).toMatchObject([{ displayText: 'second part', start: 0.2 }]);
  });
});

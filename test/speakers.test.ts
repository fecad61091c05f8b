import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpeakerSource, TemplateType } from '../src/domain/enums.js';
import { copyWorkspaceSpeakersToTask } from '../src/modules/speakers/speakers.repository.js';
import { createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { createTestContext, createTestTenant, type TestContext, type TestTenant } from './support/context.js';
import { insertCall } from './support/tasks.js';
import { expectProblem } from './support/problem.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.restoreAllMocks();
});

const base = '/api/v1.0/external/transcripts/speakers';

/** An organization whose default workspace is a Transcription workspace. */
function transcriptTenant(): Promise<TestTenant> {
  return createTestTenant(ctx, { defaultTemplate: TemplateType.Transcripts });
}

/** A call in ToReview, inserted without the pipeline: its id. */
const callId = async (t: TestTenant, workspaceId = t.defaultWorkspaceId) => (await insertCall(ctx.prisma, t, { workspaceId })).id;

function send(t: TestTenant, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  return ctx.app.inject({ method, url: `${base}${url}`, headers: t.headers, ...(payload === undefined ? {} : { payload: payload as object }) });
}

describe('task speakers', () => {
  it('creates speakers from the single object and from the {speakers: [one]} wrapper, and lists them with their source', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;

    const single = await send(t, 'POST', path, { speakerId: 'agent', speakerName: 'Agent', speakerPrefix: 'Ms.', isDefault: true });
    expect(single.statusCode, single.body).toBe(200);
    expect(single.json()).toEqual({ speakerId: 'agent', speakerName: 'Agent', speakerPrefix: 'Ms.', speakerSuffix: null, isDefault: true });

    const wrapped = await send(t, 'POST', path, { speakers: [{ speakerId: 'client', speakerName: 'Client', speakerSuffix: 'Jr.' }] });
    expect(wrapped.statusCode, wrapped.body).toBe(200);
    expect(wrapped.json()).toEqual({ speakerId: 'client', speakerName: 'Client', speakerPrefix: null, speakerSuffix: 'Jr.', isDefault: false });

    const list = await send(t, 'GET', path);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toEqual({
      speakers: [
        { speakerId: 'agent', speakerName: 'Agent', speakerPrefix: 'Ms.', speakerSuffix: null, isDefault: true, source: SpeakerSource.Task },
        { speakerId: 'client', speakerName: 'Client', speakerPrefix: null, speakerSuffix: 'Jr.', isDefault: false, source: SpeakerSource.Task },
      ],
    });
  });

  it('keeps one default per task: setting a new default clears the others', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;
    await ctx.prisma.taskSpeaker.create({ data: { taskId, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected } });
    await send(t, 'POST', path, { speakerId: 'b', speakerName: 'B', isDefault: true });
    const defaults = async () => (await send(t, 'GET', path)).json().speakers.filter((s: { isDefault: boolean }) => s.isDefault).map((s: { speakerId: string }) => s.speakerId);
    expect(await defaults()).toEqual(['b']);

    const updated = await send(t, 'PUT', path, { speakers: [{ speakerId: 'speaker-1', speakerName: 'Alice', isDefault: true }] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toEqual({ speakerId: 'speaker-1', speakerName: 'Alice', speakerPrefix: null, speakerSuffix: null, isDefault: true });
    expect(await defaults()).toEqual(['speaker-1']);
    // An update keeps the speaker's source.
    const alice = (await send(t, 'GET', path)).json().speakers.find((s: { speakerId: string }) => s.speakerId === 'speaker-1');
    expect(alice).toMatchObject({ speakerName: 'Alice', source: SpeakerSource.Detected });

    // Concurrent requests each making another speaker the default still leave exactly one.
    await Promise.all(['c', 'd', 'e'].map((id) => send(t, 'POST', path, { speakerId: id, speakerName: id.toUpperCase(), isDefault: true })));
    expect(await defaults()).toHaveLength(1);
  });

  it('answers a missing or empty speakerId with 400 SpeakerIdRequired', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;
    const bodies = [
      { speakerName: 'No id' },
      { speakerId: '', speakerName: 'Empty id' },
      { speakerId: '   ', speakerName: 'Blank id' },
      { speakerId: null, speakerName: 'Null id' },
      { speakers: [{ speakerName: 'No id in the wrapper' }] },
    ];
    for (const method of ['POST', 'PUT'] as const) {
      for (const body of bodies) {
        const problem = expectProblem(await send(t, method, path, body), 400, 'SpeakerIdRequired');
        expect(problem).toMatchObject({ type: 'https://tools.ietf.org/html/rfc7231#section-6.5.1', status: 400, detail: 'Every speaker must have a valid id.' });
      }
    }
    expect((await send(t, 'GET', path)).json().speakers).toEqual([]);
  });

  it('rejects other malformed bodies, a duplicate id and an update of an unknown speaker', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;
    expectProblem(await send(t, 'POST', path, { speakerId: 'x' }), 400, 'ValidationError');
    expectProblem(await send(t, 'POST', path, { speakers: [] }), 400, 'ValidationError');
    const two = { speakers: [{ speakerId: 'x', speakerName: 'X' }, { speakerId: 'y', speakerName: 'Y' }] };
    expectProblem(await send(t, 'POST', path, two), 400, 'ValidationError');
    expect((await send(t, 'POST', path, { speakerId: 'x', speakerName: 'X' })).statusCode).toBe(200);
    expectProblem(await send(t, 'POST', path, { speakerId: 'x', speakerName: 'X again' }), 409, 'SpeakerAlreadyExists');
    expectProblem(await send(t, 'PUT', path, { speakerId: 'nobody', speakerName: 'N' }), 404);
  });

  it('deletes a speaker; 404 for an unknown one', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;
    await send(t, 'POST', path, { speakerId: 'guest 1', speakerName: 'Guest' });
    const deleted = await send(t, 'DELETE', `${path}/guest%201`);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect((await send(t, 'GET', path)).json().speakers).toEqual([]);
    expectProblem(await send(t, 'DELETE', `${path}/guest%201`), 404);
  });

  it('finds the task only in its own workspace of the caller organization', async () => {
    const t = await transcriptTenant();
    const other = await transcriptTenant();
    const taskId = await callId(t);
    const secondWorkspace = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'calls', templateType: TemplateType.Transcripts })).workspaceId;
    const speaker = { speakerId: 'a', speakerName: 'A' };

    for (const path of [`/tasks/${taskId}/${secondWorkspace}`, `/tasks/${taskId + 100000}/${t.defaultWorkspaceId}`]) {
      expectProblem(await send(t, 'GET', path), 404);
      expectProblem(await send(t, 'POST', path, speaker), 404);
    }
    // Another organization's task behaves exactly like a missing one.
    for (const method of ['GET', 'POST', 'PUT'] as const) {
      expectProblem(await send(other, method, `/tasks/${taskId}/${t.defaultWorkspaceId}`, method === 'GET' ? undefined : speaker), 404);
    }
    expectProblem(await send(other, 'DELETE', `/tasks/${taskId}/${t.defaultWorkspaceId}/a`), 404);
    expectProblem(await send(t, 'GET', `/tasks/abc/${t.defaultWorkspaceId}`), 400, 'ValidationError');
    expectProblem(await send(t, 'GET', `/tasks/99999999999/${t.defaultWorkspaceId}`), 400, 'ValidationError');

    // Only transcript tasks have speakers.
    const layout = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'docs', templateType: TemplateType.Layout })).workspaceId;
    const documentTask = await callId(t, layout);
    expectProblem(await send(t, 'GET', `/tasks/${documentTask}/${layout}`), 400, 'NotATranscriptTask');
  });

  it('answers an unexpected failure with 500 InternalError and the spec detail', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    const path = `/tasks/${taskId}/${t.defaultWorkspaceId}`;
    vi.spyOn(ctx.prisma.taskSpeaker, 'findMany').mockRejectedValueOnce(new Error('disk on fire'));
    const problem = expectProblem(await send(t, 'GET', path), 500, 'InternalError');
    expect(problem).toMatchObject({ type: 'https://tools.ietf.org/html/rfc7231#section-6.6.1', detail: 'Unexpected error while retrieving speakers.' });
    expect(JSON.stringify(problem)).not.toContain('disk on fire');

    vi.spyOn(ctx.prisma, '$transaction').mockRejectedValueOnce(new Error('disk on fire'));
    expectProblem(await send(t, 'POST', path, { speakerId: 'a', speakerName: 'A' }), 500, 'InternalError');
    vi.spyOn(ctx.prisma, '$transaction').mockRejectedValueOnce(new Error('disk on fire'));
    const upsert = expectProblem(await send(t, 'PUT', `/workspaces/${t.defaultWorkspaceId}`, { speakers: [] }), 500, 'InternalError');
    expect(upsert.detail).toBe('Unexpected error while upserting speakers.');
  });
});

describe('workspace speakers', () => {
  it('replaces the list: upserts the given speakers and removes the rest', async () => {
    const t = await transcriptTenant();
    const path = `/workspaces/${t.defaultWorkspaceId}`;
    expect((await send(t, 'GET', path)).json()).toEqual({ speakers: [] });

    const first = await send(t, 'PUT', path, {
      speakers: [
        { speakerId: 'host', speakerName: 'Host', speakerPrefix: 'Dr.' },
        { speakerId: 'guest', speakerName: 'Guest' },
      ],
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({
      speakers: [
        { speakerId: 'host', speakerName: 'Host', speakerPrefix: 'Dr.', speakerSuffix: null },
        { speakerId: 'guest', speakerName: 'Guest', speakerPrefix: null, speakerSuffix: null },
      ],
    });

    const second = await send(t, 'PUT', path, {
      speakers: [
        { speakerId: 'host', speakerName: 'Host Renamed' },
        { speakerId: 'expert', speakerName: 'Expert', speakerSuffix: 'PhD' },
      ],
    });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().speakers).toEqual([
      { speakerId: 'host', speakerName: 'Host Renamed', speakerPrefix: null, speakerSuffix: null },
      { speakerId: 'expert', speakerName: 'Expert', speakerPrefix: null, speakerSuffix: 'PhD' },
    ]);
    expect((await send(t, 'GET', path)).json()).toEqual(second.json());
    expect((await send(t, 'PUT', path, { speakers: [] })).json()).toEqual({ speakers: [] });
  });

  it('requires every id (400 SpeakerIdRequired), unique ids, and a Transcription workspace of the caller', async () => {
    const t = await transcriptTenant();
    const other = await transcriptTenant();
    const path = `/workspaces/${t.defaultWorkspaceId}`;
    await send(t, 'PUT', path, { speakers: [{ speakerId: 'kept', speakerName: 'Kept' }] });

    const problem = expectProblem(await send(t, 'PUT', path, { speakers: [{ speakerId: 'a', speakerName: 'A' }, { speakerName: 'No id' }] }), 400, 'SpeakerIdRequired');
    expect(problem.detail).toBe('Every speaker must have a valid id.');
    expectProblem(await send(t, 'PUT', path, { speakers: [{ speakerId: 'a', speakerName: 'A' }, { speakerId: 'a', speakerName: 'B' }] }), 400, 'ValidationError');
    // Nothing of a rejected request was stored.
    expect((await send(t, 'GET', path)).json().speakers.map((s: { speakerId: string }) => s.speakerId)).toEqual(['kept']);

    expectProblem(await send(other, 'GET', path), 404);
    expectProblem(await send(other, 'PUT', path, { speakers: [] }), 404);
    const layout = (await createWorkspace(ctx.prisma, { tenantId: t.tenantId, name: 'docs', templateType: TemplateType.Layout })).workspaceId;
    expectProblem(await send(t, 'PUT', `/workspaces/${layout}`, { speakers: [] }), 400, 'NotATranscriptWorkspace');
  });

  it('are copied into a task as source Workspace, never over the task\'s own speakers', async () => {
    const t = await transcriptTenant();
    const taskId = await callId(t);
    await send(t, 'PUT', `/workspaces/${t.defaultWorkspaceId}`, {
      speakers: [
        { speakerId: 'host', speakerName: 'Host' },
        { speakerId: 'speaker-1', speakerName: 'Workspace name' },
      ],
    });
    await ctx.prisma.taskSpeaker.create({ data: { taskId, speakerId: 'speaker-1', speakerName: 'Speaker 1', isDefault: true, source: SpeakerSource.Detected } });
    await ctx.prisma.$transaction((tx) => copyWorkspaceSpeakersToTask(tx, t.tenantId, taskId, t.defaultWorkspaceId));
    const speakers = (await send(t, 'GET', `/tasks/${taskId}/${t.defaultWorkspaceId}`)).json().speakers;
    expect(speakers).toEqual([
      { speakerId: 'speaker-1', speakerName: 'Speaker 1', speakerPrefix: null, speakerSuffix: null, isDefault: true, source: SpeakerSource.Detected },
      { speakerId: 'host', speakerName: 'Host', speakerPrefix: null, speakerSuffix: null, isDefault: false, source: SpeakerSource.Workspace },
    ]);
  });
});

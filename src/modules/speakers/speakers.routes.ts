import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { problemResponses } from '../../http/schemas.js';
import { callerOf } from '../../http/caller.js';
import {
  taskSpeakerBody,
  taskSpeakerItemParams,
  taskSpeakerModel,
  taskSpeakerParams,
  taskSpeakersResponse,
  workspaceSpeakerParams,
  workspaceSpeakersBody,
  workspaceSpeakersResponse,
} from './speakers.schemas.js';
import {
  addTaskSpeaker,
  changeTaskSpeaker,
  getTaskSpeakers,
  getWorkspaceSpeakers,
  removeTaskSpeaker,
  setWorkspaceSpeakers,
  SpeakerOperationError,
} from './speakers.service.js';

const tags = ['Transcript speakers'];
const TASK_PATH = '/transcripts/speakers/tasks/:taskId/:workspaceId';
const WORKSPACE_PATH = '/transcripts/speakers/workspaces/:workspaceId';

export const speakersRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  // The error handler answers these with the spec's InternalError body and does not log
  // AppErrors, so the underlying failure is logged here.
  app.addHook('onError', async (request, _reply, error) => {
    if (error instanceof SpeakerOperationError) request.log.error({ err: error.cause }, error.detail);
  });

  app.get(
    TASK_PATH,
    {
      schema: {
        operationId: 'listTaskSpeakers',
        tags,
        summary: 'Speakers of a transcript task',
        params: taskSpeakerParams,
        response: { 200: taskSpeakersResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getTaskSpeakers(deps.prisma, callerOf(request).tenantId, request.params),
  );

  app.post(
    TASK_PATH,
    {
      schema: {
        operationId: 'createTaskSpeaker',
        tags,
        summary: 'Add a speaker to a transcript task (an ExternalTaskSpeakerModel, or {speakers: [one]})',
        params: taskSpeakerParams,
        body: taskSpeakerBody,
        response: { 200: taskSpeakerModel, ...problemResponses(400, 401, 404, 409, 429, 500, 503) },
      },
    },
    async (request) => addTaskSpeaker(deps.prisma, callerOf(request).tenantId, request.params, request.body),
  );

  app.put(
    TASK_PATH,
    {
      schema: {
        operationId: 'updateTaskSpeaker',
        tags,
        summary: 'Update a speaker of a transcript task (an ExternalTaskSpeakerModel, or {speakers: [one]})',
        params: taskSpeakerParams,
        body: taskSpeakerBody,
        response: { 200: taskSpeakerModel, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => changeTaskSpeaker(deps.prisma, callerOf(request).tenantId, request.params, request.body),
  );

  app.delete(
    `${TASK_PATH}/:speakerId`,
    {
      schema: {
        operationId: 'deleteTaskSpeaker',
        tags,
        summary: 'Remove a speaker from a transcript task',
        params: taskSpeakerItemParams,
        response: { 204: z.null().describe('Removed'), ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request, reply) => {
      await removeTaskSpeaker(deps.prisma, callerOf(request).tenantId, request.params);
      return reply.code(204).send(null);
    },
  );

  app.get(
    WORKSPACE_PATH,
    {
      schema: {
        operationId: 'getWorkspaceSpeakers',
        tags,
        summary: 'Speakers of a Transcription workspace',
        params: workspaceSpeakerParams,
        response: { 200: workspaceSpeakersResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => getWorkspaceSpeakers(deps.prisma, callerOf(request).tenantId, request.params.workspaceId),
  );

  app.put(
    WORKSPACE_PATH,
    {
      schema: {
        operationId: 'replaceWorkspaceSpeakers',
        tags,
        summary: "Replace a Transcription workspace's speakers: the list given is upserted, the others removed",
        params: workspaceSpeakerParams,
        body: workspaceSpeakersBody,
        response: { 200: workspaceSpeakersResponse, ...problemResponses(400, 401, 404, 429, 500, 503) },
      },
    },
    async (request) => setWorkspaceSpeakers(deps.prisma, callerOf(request).tenantId, request.params.workspaceId, request.body.speakers),
  );
};

import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app.js';
import { publicBaseUrl } from '../../config.js';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../../http/problem.js';
import { problemResponses } from '../../http/schemas.js';
import { uploadsDir } from '../../pipeline/pipeline-deps.js';
import { authenticateBearer } from '../auth/auth.plugin.js';
import { resolveWorkspace } from '../workspaces/workspaces.service.js';
import { parseUploadMetadata } from './upload-metadata.js';

/** Spec: chunks of at most 100 MB. */
export const MAX_CHUNK_BYTES = 100 * 1024 * 1024;
/** Incomplete uploads are deleted after this (the sweeper does it). */
const UPLOAD_EXPIRY_MS = 24 * 60 * 60 * 1000;
const FILETYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+$/;

const tags = ['Uploads'];
const uploadParams = z.object({ uploadId: z.string().regex(/^[\w-]{1,128}$/) });

/**
 * Resumable uploads (TUS 1.0) at /files/. Our checks run before the TUS server sees a request:
 * Bearer token, ownership of the upload (another organization's upload is "not found"), metadata
 * (`filetype` required, `workspaceid` optional and the caller's), and the chunk size limit.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { prisma, config } = deps;
  // Who creates an upload, decided by our checks and read by the TUS hook (keyed by the Node request).
  const creators = new WeakMap<IncomingMessage, { tenantId: number; workspaceId: number }>();
  const tus = new TusServer({
    path: '/files',
    datastore: new FileStore({ directory: uploadsDir(config), expirationPeriodInMilliseconds: UPLOAD_EXPIRY_MS }),
    maxSize: config.MAX_SOURCE_BYTES,
    respectForwardedHeaders: true,
    generateUrl: (_req, { id }) => `${publicBaseUrl(config)}/files/${id}`,
    onUploadCreate: async (req, upload) => {
      const creator = req.runtime?.node?.req ? creators.get(req.runtime.node.req as IncomingMessage) : undefined;
      if (!creator) throw new Error('upload created without our checks');
      await prisma.upload.create({
        data: {
          id: upload.id,
          tenantId: creator.tenantId,
          workspaceId: creator.workspaceId,
          fileType: upload.metadata?.filetype ?? upload.metadata?.fileType ?? 'application/octet-stream',
          size: upload.size === undefined ? null : BigInt(upload.size),
          expiresAt: new Date(Date.now() + UPLOAD_EXPIRY_MS),
        },
      });
      return {};
    },
    onResponseError: (_req, err) => {
      if (!('status_code' in err) || err.status_code >= 500) app.log.error({ err }, 'upload request failed');
      return undefined;
    },
    onUploadFinish: async (_req, upload) => {
      await prisma.upload.update({ where: { id: upload.id }, data: { completedAt: new Date(), size: BigInt(upload.offset) } });
      return {};
    },
  });

  // TUS bodies are streamed to the store by the TUS server itself: Fastify must not read them.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  async function checkRequest(request: FastifyRequest, uploadId: string | undefined) {
    const caller = await authenticateBearer(deps.clientSecrets, deps.keys, config.JWT_ISSUER, request.headers.authorization);
    if (uploadId !== undefined) {
      const upload = await prisma.upload.findFirst({ where: { id: uploadId, tenantId: caller.tenantId } });
      if (!upload) throw new NotFoundError(`Upload ${uploadId} was not found`);
    }
    if (request.method === 'POST') {
      const metadata = parseUploadMetadata(request.headers['upload-metadata'] as string | undefined);
      const fileType = metadata.get('filetype');
      if (!fileType || !FILETYPE_PATTERN.test(fileType)) {
        throw new BadRequestError('Upload-Metadata needs filetype, a MIME type such as application/pdf', {
          title: 'ValidationError',
          errors: [{ field: 'filetype', message: 'required MIME type' }],
        });
      }
      const rawWorkspace = metadata.get('workspaceid');
      const workspaceId = rawWorkspace == null || rawWorkspace === '' || rawWorkspace === 'null' ? undefined : Number(rawWorkspace);
      if (workspaceId !== undefined && (!Number.isInteger(workspaceId) || workspaceId <= 0)) {
        throw new BadRequestError('Upload-Metadata workspaceid must be a workspace id', {
          title: 'ValidationError',
          errors: [{ field: 'workspaceid', message: 'positive integer expected' }],
        });
      }
      const workspace = await resolveWorkspace(prisma, caller.tenantId, workspaceId);
      creators.set(request.raw, { tenantId: caller.tenantId, workspaceId: workspace.id });
    }
    if (request.method === 'PATCH' && Number(request.headers['content-length'] ?? 0) > MAX_CHUNK_BYTES) {
      throw new PayloadTooLargeError(`Chunks may be at most ${MAX_CHUNK_BYTES} bytes (100 MB); send the file in smaller chunks`);
    }
  }

  const handOver = async (request: FastifyRequest, reply: FastifyReply, uploadId?: string) => {
    if (request.method !== 'OPTIONS') await checkRequest(request, uploadId);
    reply.hijack();
    await tus.handle(request.raw, reply.raw);
  };

  const describe = (operationId: string, summary: string, withId: boolean) => ({
    schema: {
      operationId,
      tags,
      summary,
      description: 'TUS 1.0 resumable upload protocol (Bearer token required); the Location of a finished upload is a valid context.url.',
      ...(withId ? { params: uploadParams } : {}),
      response: problemResponses(400, 401, 404, 409, 412, 413, 415, 500),
    },
  });
  app.post('/files', describe('createUpload', 'Start an upload (metadata: filetype, workspaceid)', false), (req, reply) => handOver(req, reply));
  app.options('/files', describe('uploadOptions', 'TUS capabilities', false), (req, reply) => handOver(req, reply));
  app.head('/files/:uploadId', describe('getUploadOffset', 'Offset of an upload (to resume)', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  app.patch('/files/:uploadId', describe('appendUploadChunk', 'Append a chunk of at most 100 MB', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  app.delete('/files/:uploadId', describe('deleteUpload', 'Abandon an upload', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  app.options('/files/:uploadId', describe('uploadItemOptions', 'TUS capabilities', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
};

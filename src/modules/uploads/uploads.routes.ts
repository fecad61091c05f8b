import type { ServerOptions } from '@tus/server';
import type { IncomingMessage } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { publicBaseUrl } from '../../config.js';
import { BadRequestError, PayloadTooLargeError } from '../../http/problem.js';
import { MAX_ROW_ID, problemResponses, rowId } from '../../http/schemas.js';
import { authenticateBearer } from '../auth/auth.plugin.js';
import { resolveWorkspace } from '../workspaces/workspaces.service.js';
import { ProblemTusServer } from './problem-tus-server.js';
import { parseUploadMetadata } from './upload-metadata.js';
import { createUploadDatastore } from './upload-storage.js';
import { recordUploadCreated, recordUploadFinished, requireOwnUpload } from './uploads.service.js';

/** Spec: chunks of at most 100 MB. */
export const MAX_CHUNK_BYTES = 100 * 1024 * 1024;
const FILETYPE_PATTERN = /^[\w.+-]+\/[\w.+-]+$/;

const tags = ['Uploads'];
const uploadParams = z.object({ uploadId: z.string().regex(/^[\w-]{1,128}$/) });

/** The request the TUS server hands to its hooks (a web Request over the Node one). */
type TusRequest = Parameters<NonNullable<ServerOptions['onUploadCreate']>>[0];

/** The Node request under a request the TUS server hands to its hooks. */
function nodeRequestOf(req: TusRequest): IncomingMessage | undefined {
  return req.runtime?.node?.req as IncomingMessage | undefined;
}

/**
 * Resumable uploads (TUS 1.0) at /files/. Our checks run before the TUS server sees a request:
 * Bearer token, ownership of the upload (another organization's upload is "not found"), metadata
 * (`filetype` required, `workspaceid` optional and the caller's), and the chunk size limit.
 */
export const uploadsRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  const { prisma, config } = deps;
  // What our checks decided, read by the TUS server (keyed by the Node request): who creates an
  // upload, and which upload a request may act on.
  const creators = new WeakMap<IncomingMessage, { tenantId: number; workspaceId: number }>();
  const checkedUploadIds = new WeakMap<IncomingMessage, string>();
  // The organization of each checked request: the upload a request finishes is that organization's.
  const callerTenants = new WeakMap<IncomingMessage, number>();
  const tus = new ProblemTusServer({
    path: '/files',
    // The TUS file store under DATA_DIR, or the S3 store on the blob store's bucket (upload-storage.ts).
    datastore: createUploadDatastore(deps.blobs, config, prisma),
    maxSize: config.MAX_SOURCE_BYTES,
    // Locations come from PUBLIC_BASE_URL (generateUrl): no client header may shape them.
    respectForwardedHeaders: false,
    generateUrl: (_req, { id }) => `${publicBaseUrl(config)}/files/${id}`,
    // The TUS server would take the last segment of the whole URL, query and fragment included
    // (/files/<mine>?x=/<theirs> names "theirs"): it acts on exactly the upload whose ownership
    // our check confirmed, the route's path parameter, and on nothing when there was no check.
    getFileIdFromRequest: (req) => {
      const node = nodeRequestOf(req);
      return node && checkedUploadIds.get(node);
    },
    onUploadCreate: async (req, upload) => {
      const node = nodeRequestOf(req);
      const creator = node && creators.get(node);
      if (!creator) throw new Error('upload created without our checks');
      await recordUploadCreated(prisma, creator, {
        id: upload.id,
        fileType: upload.metadata?.filetype ?? upload.metadata?.fileType ?? 'application/octet-stream',
        size: upload.size,
      });
      return {};
    },
    onResponseError: (_req, err) => {
      if (!('status_code' in err) || err.status_code >= 500) app.log.error({ err }, 'upload request failed');
      return undefined;
    },
    onUploadFinish: async (req, upload) => {
      const node = nodeRequestOf(req);
      const tenantId = node && callerTenants.get(node);
      if (tenantId === undefined) throw new Error('upload finished without our checks');
      await recordUploadFinished(prisma, tenantId, upload.id, upload.offset);
      return {};
    },
  });

  // TUS bodies are streamed to the store by the TUS server itself: Fastify must not read them.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));

  async function checkRequest(request: FastifyRequest, uploadId: string | undefined) {
    const caller = await authenticateBearer(deps.clientSecrets, deps.keys, config.JWT_ISSUER, request.headers.authorization);
    callerTenants.set(request.raw, caller.tenantId);
    if (uploadId !== undefined) {
      await requireOwnUpload(prisma, caller.tenantId, uploadId);
      checkedUploadIds.set(request.raw, uploadId);
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
      const workspaceId = rawWorkspace == null || rawWorkspace === '' || rawWorkspace === 'null' ? undefined : rowId.safeParse(rawWorkspace);
      if (workspaceId !== undefined && !workspaceId.success) {
        throw new BadRequestError('Upload-Metadata workspaceid must be a workspace id', {
          title: 'ValidationError',
          errors: [{ field: 'workspaceid', message: `positive integer of at most ${MAX_ROW_ID} expected` }],
        });
      }
      const workspace = await resolveWorkspace(prisma, caller.tenantId, workspaceId?.data);
      creators.set(request.raw, { tenantId: caller.tenantId, workspaceId: workspace.id });
    }
    // A POST may carry the first chunk (creation-with-upload), a PATCH carries the next ones.
    if ((request.method === 'PATCH' || request.method === 'POST') && Number(request.headers['content-length'] ?? 0) > MAX_CHUNK_BYTES) {
      throw new PayloadTooLargeError(`Chunks may be at most ${MAX_CHUNK_BYTES} bytes (100 MB); send the file in smaller chunks`);
    }
  }

  const handOver = async (request: FastifyRequest, reply: FastifyReply, uploadId?: string) => {
    if (request.method !== 'OPTIONS') await checkRequest(request, uploadId);
    await tus.handleRequest(request, reply);
  };

  const describe = (operationId: string, summary: string, withId: boolean) => ({
    schema: {
      operationId,
      tags,
      summary,
      description: 'TUS 1.0 resumable upload protocol (Bearer token required); the Location of a finished upload is a valid context.url.',
      ...(withId ? { params: uploadParams } : {}),
      // Ours, and the TUS server's own (400 also for an unsupported extension, 403 missing Upload-Offset, 410 expired).
      response: problemResponses(400, 401, 403, 404, 409, 410, 412, 413, 415, 500),
    },
  });
  app.post('/files', describe('createUpload', 'Start an upload (metadata: filetype, workspaceid)', false), (req, reply) => handOver(req, reply));
  app.options('/files', describe('uploadOptions', 'TUS capabilities', false), (req, reply) => handOver(req, reply));
  app.head('/files/:uploadId', describe('getUploadOffset', 'Offset of an upload (to resume)', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  app.patch('/files/:uploadId', describe('appendUploadChunk', 'Append a chunk of at most 100 MB', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  // Termination is allowed for completed uploads too (TUS termination extension): an organization
  // may remove a file it uploaded. Tasks already pre-processed keep their own copy of it; a task
  // still queued, or reprocessed later, finds the upload gone and ends in
  // PreProcessingDownloadFailed, as with a source URL that went away. New tasks can no longer name
  // it (task-source.ts), its Upload row being deleted with the file (upload-file-store.ts).
  app.delete('/files/:uploadId', describe('deleteUpload', 'Abandon or delete an upload', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
  app.options('/files/:uploadId', describe('uploadItemOptions', 'TUS capabilities', true), (req, reply) => handOver(req, reply, (req.params as z.infer<typeof uploadParams>).uploadId));
};

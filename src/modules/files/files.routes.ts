import path from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppDeps } from '../../app-deps.js';
import { AppError, NotFoundError } from '../../http/problem.js';
import { problemResponses } from '../../http/schemas.js';
import { BlobNotFoundError } from '../../storage/blob-store.js';
import { FILE_DOWNLOAD_PATH, verifySignedFile } from '../../storage/signed-url.js';

const CONTENT_TYPES: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.tif': 'image/tiff',
  '.tiff': 'image/tiff',
  '.mp3': 'audio/mpeg',
  '.mp4': 'video/mp4',
  '.wav': 'audio/wav',
};

/** Signed, expiring links to stored files (originalFileUrl, redacted outputs): no token needed, tamper-proof. */
export const filesRoutes: FastifyPluginAsyncZod<AppDeps> = async (app, deps) => {
  app.get(
    `${FILE_DOWNLOAD_PATH}/*`,
    {
      schema: {
        operationId: 'downloadSignedFile',
        tags: ['Files'],
        summary: 'Download a stored file through a signed, expiring link',
        querystring: z.object({ expires: z.string().optional(), sig: z.string().optional(), filename: z.string().optional() }),
        response: problemResponses(403, 404, 410),
      },
    },
    async (request, reply) => {
      const key = (request.params as { '*': string })['*'];
      const verdict = verifySignedFile(key, request.query, deps.fileUrlSecret);
      if (verdict === 'expired') throw new AppError(410, 'This link has expired; fetch the export again for a fresh one', { title: 'LinkExpired' });
      if (verdict !== 'ok') throw new AppError(403, 'The link signature is invalid', { title: 'InvalidSignature' });
      try {
        const stream = await deps.blobs.openRead(key);
        const filename = request.query.filename ?? path.basename(key);
        return reply
          .type(CONTENT_TYPES[path.extname(filename).toLowerCase()] ?? 'application/octet-stream')
          .header('content-disposition', `attachment; filename="${filename.replace(/["\\\r\n]/g, '_')}"`)
          .header('cache-control', 'private, no-store')
          .send(stream as never);
      } catch (err) {
        if (err instanceof BlobNotFoundError) throw new NotFoundError('The file no longer exists');
        throw err;
      }
    },
  );
};

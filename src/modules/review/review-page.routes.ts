import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { NotFoundError } from '../../http/problem.js';
import { problemResponses } from '../../http/schemas.js';

/** The reviewer page: plain files, no build step, in public/review at the repository root. */
const PAGE_DIR = new URL('../../../public/review/', import.meta.url);

/** The page's files by kind: whatever public/review holds of these is served, under its own name. */
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/**
 * Only this origin's scripts, styles and API; page images arrive as blob: URLs (fetched with the
 * token), the audio through a signed link on this origin; data: is the page's empty favicon.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "media-src 'self'",
  "connect-src 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Serves the reviewer page at /review (its files at /review/<name>); the files are read once, at start-up. */
export const reviewPageRoutes: FastifyPluginAsyncZod = async (app) => {
  const names = (await readdir(PAGE_DIR)).filter((name) => TYPES[path.extname(name)]);
  const contents = new Map(await Promise.all(names.map(async (name) => [name, { type: TYPES[path.extname(name)]!, body: await readFile(new URL(name, PAGE_DIR)) }] as const)));
  const sendFile = (reply: FastifyReply, name: string) => {
    const file = contents.get(name);
    if (!file) throw new NotFoundError(`The reviewer page has no file ${name}`);
    return reply
      .type(file.type)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .send(file.body as never);
  };
  const schema = { tags: ['Review'], response: problemResponses(404) };

  app.get('/review', { schema: { ...schema, operationId: 'reviewPage', summary: 'The reviewer web page' } }, async (_request, reply) =>
    sendFile(reply, 'index.html'),
  );
  app.get(
    '/review/:file',
    {
      schema: {
        ...schema,
        operationId: 'reviewPageFile',
        summary: 'A file of the reviewer web page (its scripts and style.css)',
        params: z.object({ file: z.string().max(64) }),
      },
    },
    async (request, reply) => sendFile(reply, request.params.file),
  );
};

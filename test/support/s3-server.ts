/**
 * A local S3-compatible server for the tests: npm `s3rver` (objects in a directory), with the two
 * multipart operations it lacks and the TUS S3 store needs, ListParts and AbortMultipartUpload,
 * answered from the parts s3rver keeps on disk. Credentials: S3RVER / S3RVER.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import S3rver from 's3rver';

export const S3_TEST_BUCKET = 'docproc-test';
export const S3_TEST_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  type: string;
  body: unknown;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
}

const xml = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function multipartExtras(store: FilesystemStore) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const uploadId = ctx.query.uploadId;
    const target = /^\/([^/]+)\/(.+)$/.exec(ctx.path);
    if (typeof uploadId !== 'string' || !target || (ctx.method !== 'GET' && ctx.method !== 'DELETE')) return next();
    const bucket = target[1]!;
    const key = decodeURIComponent(target[2]!);
    const dir = path.join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    ctx.type = 'application/xml';
    if (!existsSync(path.join(dir, 'key'))) {
      ctx.status = 404;
      ctx.body = xml(`<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message><UploadId>${escape(uploadId)}</UploadId></Error>`);
      return;
    }
    if (ctx.method === 'DELETE') {
      await rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      ctx.body = null;
      return;
    }
    const numbers = (await readdir(dir)).filter((name) => /^\d+$/.test(name)).map(Number).sort((a, b) => a - b);
    const parts = await Promise.all(
      numbers.map(async (n) => {
        const file = path.join(dir, String(n));
        const [info, md5] = await Promise.all([stat(file), readFile(`${file}.md5`, 'utf8')]);
        return `<Part><PartNumber>${n}</PartNumber><LastModified>${info.mtime.toISOString()}</LastModified><ETag>"${md5.trim()}"</ETag><Size>${info.size}</Size></Part>`;
      }),
    );
    ctx.status = 200;
    ctx.body = xml(
      `<ListPartsResult><Bucket>${escape(bucket)}</Bucket><Key>${escape(key)}</Key><UploadId>${escape(uploadId)}</UploadId>` +
        `<PartNumberMarker>0</PartNumberMarker><NextPartNumberMarker>${numbers.at(-1) ?? 0}</NextPartNumberMarker><MaxParts>10000</MaxParts>` +
        `<IsTruncated>false</IsTruncated>${parts.join('')}</ListPartsResult>`,
    );
  };
}

export interface S3TestServer {
  endpoint: string;
  close(): Promise<void>;
}

/** Starts the server on a free port of 127.0.0.1 with the test bucket made, objects under `directory`. */
export async function startS3Server(directory: string): Promise<S3TestServer> {
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: S3_TEST_BUCKET }] });
  const koa = server as unknown as { middleware: unknown[]; store: FilesystemStore };
  koa.middleware.unshift(multipartExtras(koa.store));
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${address.port}`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

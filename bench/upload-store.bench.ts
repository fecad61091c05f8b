/**
 * Which TUS store for BLOB_STORE=s3: the TUS S3 store (chunks become parts of a multipart upload
 * in the bucket) against the TUS file store plus a move into the bucket when the upload completes
 * (the bytes cross the disk, then the network, once more). Both write the same file in the same
 * chunks to a local S3-compatible server (s3rver, the tests' one) in this process; prints the
 * time of each and their ratio. Short: a few runs of 64 MiB.
 *
 *   npx tsx bench/upload-store.bench.ts        (BENCH_UPLOAD_MIB=64 BENCH_CHUNK_MIB=16 BENCH_RUNS=3)
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { FileStore } from '@tus/file-store';
import { S3Store } from '@tus/s3-store';
import { Upload, type DataStore } from '@tus/server';
import { openFileStream } from '../src/storage/blob-store.js';
import { S3BlobStore, s3ClientConfig } from '../src/storage/s3-blob-store.js';
import { S3_TEST_BUCKET, S3_TEST_CREDENTIALS, startS3Server } from '../test/support/s3-server.js';

const MIB = 1024 * 1024;
const uploadBytes = Number(process.env.BENCH_UPLOAD_MIB ?? 64) * MIB;
const chunkBytes = Number(process.env.BENCH_CHUNK_MIB ?? 16) * MIB;
const runs = Number(process.env.BENCH_RUNS ?? 3);

const scratch = await mkdtemp(path.join(tmpdir(), 'upload-store-bench-'));
const server = await startS3Server(path.join(scratch, 's3'));
const blobs = new S3BlobStore({ bucket: S3_TEST_BUCKET, region: 'us-east-1', endpoint: server.endpoint, forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
const block = randomBytes(MIB);

/** One chunk of the file as a TUS PATCH body would arrive. */
function chunk(bytes: number): Readable {
  return Readable.from((function* () { for (let sent = 0; sent < bytes; sent += MIB) yield block.subarray(0, Math.min(MIB, bytes - sent)); })());
}

async function writeUpload(store: DataStore): Promise<string> {
  const id = randomUUID().replace(/-/g, '');
  await store.create(new Upload({ id, size: uploadBytes, offset: 0, metadata: {} }));
  for (let offset = 0; offset < uploadBytes; ) offset = await store.write(chunk(Math.min(chunkBytes, uploadBytes - offset)), id, offset);
  return id;
}

const s3Store = new S3Store({ s3ClientConfig: { ...s3ClientConfig(blobs.options), bucket: S3_TEST_BUCKET } });
const fileStore = new FileStore({ directory: path.join(scratch, 'uploads') });

const candidates: [string, () => Promise<void>][] = [
  ['TUS S3 store', async () => void (await writeUpload(s3Store))],
  [
    'file store + move on completion',
    async () => {
      const id = await writeUpload(fileStore);
      await blobs.put(id, await openFileStream(path.join(scratch, 'uploads', id)));
      await rm(path.join(scratch, 'uploads', id));
    },
  ],
];

const times = new Map<string, number[]>();
for (let run = 0; run < runs; run++) {
  for (const [name, work] of candidates) {
    const started = performance.now();
    await work();
    times.set(name, [...(times.get(name) ?? []), performance.now() - started]);
  }
}
const median = (values: number[]) => values.slice().sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
console.log(`${uploadBytes / MIB} MiB in ${chunkBytes / MIB} MiB chunks, ${runs} runs each, load average ${loadavg()[0]!.toFixed(2)}`);
const [s3Name, moveName] = candidates.map(([name]) => name) as [string, string];
for (const [name, values] of times) console.log(`${name.padEnd(34)} median ${median(values).toFixed(0)} ms  (${(uploadBytes / MIB / (median(values) / 1000)).toFixed(0)} MiB/s)`);
console.log(`ratio file+move / S3 store: ${(median(times.get(moveName)!) / median(times.get(s3Name)!)).toFixed(2)}`);
await server.close();
await rm(scratch, { recursive: true, force: true });

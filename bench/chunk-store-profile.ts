/**
 * What Postgres spends storing a text page's chunk, statement by statement, apart from the rest of
 * the pipeline: the Layout model's chunks of the pipeline benchmark's prose pages, stored through
 * the worker's own statement (insertRunChunks) in a database of this script's own, and the CPU
 * seconds of the one backend that runs them (from /proc, as bench:pipeline measures Postgres).
 * Variants: the entities in the export's whole shape (as stored before the compact form) or
 * compacted (domain/stored-entities.ts, as the engine thread stores them), in batches of about
 * 1 MB as the engine thread sends them or one statement a page, and without the chunk table's
 * id index (its other index, the (task, run, chunk) key, is the insert's conflict check).
 *
 *   npx tsx bench/chunk-store-profile.ts [pages=200]   (DATABASE_URL: a server to create the database on)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config.js';
import { createPrisma, type PrismaClient } from '../src/db/prisma.js';
import { migrate } from '../src/db/migrate.js';
import { storableJson } from '../src/db/storable.js';
import { ensureDatabase } from '../src/dev/embedded-postgres.js';
import { TaskStatus, TemplateType } from '../src/domain/enums.js';
import { compactEntities } from '../src/domain/stored-entities.js';
import { layoutModel } from '../src/models/page/layout.js';
import { insertRunChunks } from '../src/pipeline/result-store.repository.js';
import { threadModelInput } from '../test/models/document-fixtures.js';
import { prosePdf } from './lib/documents.js';
import { cpuSeconds } from './lib/proc-stats.js';
import { say } from './lib/report.js';
import { urlOfDatabase } from './lib/infra.js';

const pages = Number(process.argv[2] ?? 200);
const DATABASE = 'docproc_chunk_store_profile';
const BATCH_BYTES = 1024 * 1024; // as the engine thread batches
const REPEATS = 3;

const adminUrl = loadConfig().DATABASE_URL;
if (!adminUrl) throw new Error('DATABASE_URL names the Postgres server to profile');

/** Each page's chunk as the JSON the engine thread sends, whole and compacted. */
async function pageChunks(): Promise<{ whole: string[]; compact: string[] }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'chunk-store-profile-'));
  try {
    const source = path.join(dir, 'text.pdf');
    await writeFile(source, await prosePdf(pages));
    const whole: string[] = [];
    const compact: string[] = [];
    await layoutModel({
      ...threadModelInput(source, 'pdf', dir, { pages: Array.from({ length: pages }, (_, i) => i + 1) }),
      templateType: TemplateType.Layout,
      saveOutput: async () => '',
      emitChunk: async (chunk) => {
        const row = { chunkNumber: whole.length + 1, pageNumber: chunk.pageNumber, averageConfidence: chunk.averageConfidence };
        whole.push(storableJson({ ...row, entities: chunk.entities }));
        compact.push(storableJson({ ...row, entities: compactEntities(chunk.entities) }));
      },
    });
    return { whole, compact };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function batches(rows: readonly string[], bytes: number): string[] {
  const out: string[] = [];
  let batch: string[] = [];
  let size = 0;
  for (const row of rows) {
    batch.push(row);
    size += row.length;
    if (size >= bytes) {
      out.push(`[${batch.join(',')}]`);
      batch = [];
      size = 0;
    }
  }
  if (batch.length) out.push(`[${batch.join(',')}]`);
  return out;
}

async function recognizingTask(prisma: PrismaClient) {
  const tenant = await prisma.tenant.create({ data: { name: 'chunk store profile' } });
  const workspace = await prisma.workspace.create({ data: { tenantId: tenant.id, name: 'Layout', taskType: 0, workspaceType: 0, templateType: TemplateType.Layout } });
  const task = await prisma.task.create({
    data: { tenantId: tenant.id, workspaceId: workspace.id, taskNumber: 1, displayName: 'profile', taskStatus: TaskStatus.Recognizing, integrationStatus: 0, request: {} },
  });
  return { tenantId: tenant.id, taskId: task.id, restartCount: 0 };
}

/** Backend CPU milliseconds a page (median of REPEATS runs) storing `statements`. */
async function storeCpu(prisma: PrismaClient, backend: number, statements: readonly string[]): Promise<number> {
  const perPage: number[] = [];
  for (let run = 0; run < REPEATS; run++) {
    const job = await recognizingTask(prisma);
    const before = await cpuSeconds(backend);
    for (const json of statements) await insertRunChunks(prisma, job, json, new Date());
    perPage.push(((await cpuSeconds(backend)) - before) * 1000 / pages);
    await prisma.documentChunk.deleteMany({ where: { taskId: job.taskId } });
    await prisma.$executeRawUnsafe('VACUUM "DocumentChunk"');
  }
  return perPage.sort((a, b) => a - b)[Math.floor(REPEATS / 2)]!;
}

const { whole, compact } = await pageChunks();
const kb = (rows: readonly string[]) => (rows.reduce((sum, r) => sum + r.length, 0) / rows.length / 1024).toFixed(0);
say(`${pages} text pages: ${kb(whole)} KB of JSON a page whole, ${kb(compact)} KB compacted`);

await ensureDatabase(adminUrl, DATABASE);
const url = urlOfDatabase(adminUrl, DATABASE);
await migrate(url);
// One connection, so that one backend runs every statement.
const prisma = createPrisma(url, 1);
try {
  const [{ pid }] = (await prisma.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`) as [{ pid: number }];
  const variants: Array<[string, string[]]> = [
    ['whole entities, ~1 MB batches (before)', batches(whole, BATCH_BYTES)],
    ['compacted, ~1 MB batches (now)', batches(compact, BATCH_BYTES)],
    ['compacted, one statement a page', batches(compact, 1)],
  ];
  for (const [name, statements] of variants) {
    say(`  ${name}: ${statements.length} statements, ${(await storeCpu(prisma, pid, statements)).toFixed(2)} ms of backend CPU a page`);
  }
  await prisma.$executeRawUnsafe('ALTER TABLE "DocumentChunk" DROP CONSTRAINT "DocumentChunk_pkey"');
  say(`  compacted, ~1 MB batches, without the id index: ${(await storeCpu(prisma, pid, batches(compact, BATCH_BYTES))).toFixed(2)} ms of backend CPU a page`);
} finally {
  await prisma.$disconnect();
  const admin = createPrisma(adminUrl, 1);
  await admin.$executeRawUnsafe(`DROP DATABASE IF EXISTS "${DATABASE}" WITH (FORCE)`).finally(() => admin.$disconnect());
}

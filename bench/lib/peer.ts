/**
 * The reference the app is measured against: a bare Fastify + Prisma server on the same tables,
 * doing the same database work as the app's route for each scenario and nothing else (no
 * validation schemas, problem bodies, rate limiter, request logging or OpenAPI). It runs in the
 * benchmark's process, as the app does, and the same load client drives both, one scenario
 * right after the other, so the ratio between them shows what the app's own layers cost.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { createPrisma, type PrismaClient } from '../../src/db/prisma.js';
import { IntegrationStatus, TaskStatus } from '../../src/domain/enums.js';
import { bearerToken } from '../../src/http/caller.js';
import type { SigningKeys } from '../../src/credentials/signing-keys.js';
import { verifyAccessToken } from '../../src/modules/auth/tokens.js';
import { listTaskPage } from '../../src/modules/tasks/tasks.repository.js';
import { taskPageQuery } from '../../src/modules/tasks/tasks.schemas.js';
import { QueueName, type Queues } from '../../src/queues/queues.js';

const API = '/api/v1.0/external';

/** The status answer's columns, as a Prisma select (what a bare route would write). */
const STATUS_SELECT = {
  id: true,
  workspaceId: true,
  batchId: true,
  taskNumber: true,
  externalId: true,
  displayName: true,
  description: true,
  createdAt: true,
  taskStatus: true,
  integrationStatus: true,
  externalIntegrationStatus: true,
  totalPages: true,
  restartCount: true,
  preProcessingStartedOn: true,
  warning: true,
} as const;

export interface PeerDeps {
  databaseUrl: string;
  keys: SigningKeys;
  issuer: string;
  queues: Queues;
  /** Workspace of the peer's creates (the organization's default). */
  workspaceId: number;
}

export interface Peer {
  url: string;
  close: () => Promise<void>;
}

/** HEAD of the source on a connection of its own, as the app's reachability check does. */
function headSource(url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: 'HEAD', agent: false }, (res) => {
      res.resume();
      if ((res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300) resolve();
      else reject(new Error(`source answered ${res.statusCode}`));
    });
    req.on('error', reject);
    req.end();
  });
}

async function tenantOf(request: FastifyRequest, deps: PeerDeps): Promise<number> {
  const claims = await verifyAccessToken(deps.keys, bearerToken(request.headers.authorization) ?? '', deps.issuer);
  return claims.tenantId;
}

/**
 * The create a bare Fastify + Prisma service would write (the creates' peer): JWT check, HEAD of the
 * source, then a Prisma interactive transaction that locks the workspace row for the next number
 * and inserts the task, then the BullMQ add after commit.
 */
async function createPeerTask(prisma: PrismaClient, deps: PeerDeps, tenantId: number, body: { displayName?: string; externalId?: string; context: { url: string } }) {
  await headSource(body.context.url);
  const task = await prisma.$transaction(async (tx) => {
    const [number] = await tx.$queryRaw<Array<{ taken: number }>>`
      UPDATE "Workspace" SET "nextTaskNumber" = "nextTaskNumber" + 1 WHERE id = ${deps.workspaceId} RETURNING "nextTaskNumber" - 1 AS taken`;
    return tx.task.create({
      data: {
        tenantId,
        workspaceId: deps.workspaceId,
        taskNumber: number!.taken,
        externalId: body.externalId ?? null,
        displayName: body.displayName ?? 'peer task',
        taskStatus: TaskStatus.QueuedForPreProcessing,
        integrationStatus: IntegrationStatus.Never,
        request: { context: body.context },
      },
      select: { id: true },
    });
  });
  await deps.queues[QueueName.PreprocessLow].add('preprocess', { tenantId, taskId: task.id, restartCount: 0 }, { jobId: `peer-${task.id}` });
  return { taskId: task.id };
}

function buildPeerApp(prisma: PrismaClient, deps: PeerDeps): FastifyInstance {
  const app = Fastify({ logger: false });
  app.post(`${API}/sdtask/process`, async (request) => {
    const tenantId = await tenantOf(request, deps);
    return createPeerTask(prisma, deps, tenantId, request.body as { context: { url: string } });
  });
  app.get(`${API}/sdtask/status`, async (request, reply) => {
    const tenantId = await tenantOf(request, deps);
    const task = await prisma.task.findFirst({ where: { tenantId, id: Number((request.query as { taskId: string }).taskId) }, select: STATUS_SELECT });
    return task ?? reply.code(404).send({ title: 'not found' });
  });
  // The app's own SQL (listTaskPage) behind a bare route: the list's database work is the same.
  app.get(`${API}/sdtask/statuslistpaginated`, async (request) => {
    const tenantId = await tenantOf(request, deps);
    const q = taskPageQuery.parse(request.query);
    const { items, total } = await listTaskPage(prisma, tenantId, q, q);
    return { items, totalCount: total, pageNumber: q.pageNumber };
  });
  return app;
}

export async function startPeer(deps: PeerDeps): Promise<Peer> {
  // A pool of the app's size (createServices' default).
  const prisma = createPrisma(deps.databaseUrl);
  const app = buildPeerApp(prisma, deps);
  await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`,
    close: async () => {
      await app.close();
      await prisma.$disconnect();
    },
  };
}

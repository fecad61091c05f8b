import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { PrismaClient } from '../db/prisma.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { Engines } from './engine-pool.js';
import type { Queues } from '../queues/queues.js';

/** What the job handlers need. Engines read files by path: blobs.localFile gives them one. */
export interface PipelineDeps {
  prisma: PrismaClient;
  config: Config;
  queues: Queues;
  blobs: BlobStore;
  log: Logger;
}

/** The steps that hand engine work to the engine threads (pre-processing, detection). */
export interface StageDeps extends PipelineDeps {
  engines: Engines;
}

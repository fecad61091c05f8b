import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from '../generated/prisma/client.js';

export type { PrismaClient };
export { Prisma };

/** Prisma on the `pg` driver adapter: no query-engine binary, so nothing to download. */
export function createPrisma(databaseUrl: string, poolSize = 10): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: poolSize });
  return new PrismaClient({ adapter });
}

/** A client or an interactive transaction: repositories accept either. */
export type Db = Omit<PrismaClient, '$connect' | '$disconnect' | '$on' | '$transaction' | '$extends'>;

export type TransactionOptions = { maxWait?: number; timeout?: number; isolationLevel?: Prisma.TransactionIsolationLevel };

/**
 * Runs `work` in one interactive transaction. Services and pipeline steps compose repository
 * calls with it; the queries themselves stay in repositories (test/prisma-in-repositories.test.ts).
 */
export function inTransaction<T>(prisma: PrismaClient, work: (tx: Db) => Promise<T>, options?: TransactionOptions): Promise<T> {
  return prisma.$transaction((tx) => work(tx), options);
}

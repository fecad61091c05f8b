import type { Db } from '../../db/prisma.js';

/** Whether Postgres answers: the readiness check reads no table and no organization's data. */
export async function pingDatabase(db: Db): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}

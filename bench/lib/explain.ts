import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import type { Db } from '../../src/db/prisma.js';
import { PrismaClient } from '../../src/generated/prisma/client.js';

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

export interface ExplainedQuery extends CapturedQuery {
  plan: string;
}

/**
 * The SQL Prisma issues for `work`, as Prisma itself logs it: the repository function the route
 * calls is run on a client with query events on (the app's own client stays unlogged, so the
 * load runs are not slowed down by logging).
 */
export async function captureSql(databaseUrl: string, work: (db: Db) => Promise<unknown>): Promise<CapturedQuery[]> {
  const prisma = new PrismaClient({
    adapter: new PrismaPg({ connectionString: databaseUrl, max: 2 }),
    log: [{ emit: 'event', level: 'query' }],
  });
  const captured: CapturedQuery[] = [];
  prisma.$on('query', (event) => captured.push({ sql: event.query, params: JSON.parse(event.params) as unknown[] }));
  try {
    await work(prisma);
  } finally {
    await prisma.$disconnect();
  }
  return captured;
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each query with its own parameters, bound as Prisma binds them
 * (text that Postgres casts by context). The first run is thrown away so the plan shows a warm
 * cache, as the load saw it.
 */
export async function explainAll(databaseUrl: string, queries: readonly CapturedQuery[]): Promise<ExplainedQuery[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const explained: ExplainedQuery[] = [];
    for (const query of queries) {
      const text = `EXPLAIN (ANALYZE, BUFFERS) ${query.sql}`;
      await client.query(text, query.params);
      const result = await client.query<{ 'QUERY PLAN': string }>(text, query.params);
      explained.push({ ...query, plan: result.rows.map((r) => r['QUERY PLAN']).join('\n') });
    }
    return explained;
  } finally {
    await client.end();
  }
}

/** A node of EXPLAIN (FORMAT JSON)'s plan tree, with the fields the checks read. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Scan Direction'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  Plans?: PlanNode[];
}

export interface JsonPlan extends CapturedQuery {
  root: PlanNode;
  executionMs: number;
}

/** EXPLAIN (ANALYZE, FORMAT JSON) of each query, the second of two runs (a warm cache). */
export async function explainJson(databaseUrl: string, queries: readonly CapturedQuery[]): Promise<JsonPlan[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const plans: JsonPlan[] = [];
    for (const query of queries) {
      const text = `EXPLAIN (ANALYZE, FORMAT JSON) ${query.sql}`;
      await client.query(text, query.params);
      const result = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode; 'Execution Time': number }> }>(text, query.params);
      const [explained] = result.rows[0]!['QUERY PLAN'];
      plans.push({ ...query, root: explained!.Plan, executionMs: explained!['Execution Time'] });
    }
    return plans;
  } finally {
    await client.end();
  }
}

/**
 * Prisma qualifies every column and lists all 34 of a task's; without the qualifiers and with the
 * long select list folded, the statement can be read in a report.
 */
export function readableSql(sql: string): string {
  const unqualified = sql.replace(/"public"\."\w+"\./g, '').replaceAll('"public".', '');
  return unqualified.replace(/^SELECT (.*?) FROM/, (whole, columns: string) =>
    columns.split(',').length > 8 ? 'SELECT /* every column */ * FROM' : whole,
  );
}

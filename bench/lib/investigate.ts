import type { Db } from '../../src/db/prisma.js';
import { findTaskStatusRow, listTaskPage, readCreateTaskContext } from '../../src/modules/tasks/tasks.repository.js';
import { taskPageQuery } from '../../src/modules/tasks/tasks.schemas.js';
import { captureSql, explainAll, readableSql, type ExplainedQuery } from './explain.js';
import { missedTarget, type Row } from './report.js';
import type { BenchScenario } from './scenarios.js';

/**
 * The reads a scenario's route makes, to be replayed on a logging client for their SQL.
 * Authentication reads the client's secret version from memory: no query. A create's insert is
 * left out, since EXPLAIN ANALYZE would run it.
 */
function routeQueries(scenario: BenchScenario, tenantId: number, taskId: number): ((db: Db) => Promise<unknown>) | undefined {
  const shape = scenario.shape;
  if (shape.kind === 'status') return (db) => findTaskStatusRow(db, tenantId, { taskId });
  if (shape.kind === 'create') return (db) => readCreateTaskContext(db, tenantId, { externalId: 'bench-explain' });
  if (shape.kind === 'health') return undefined; // no database work
  // The deepest page the load asked for: the largest OFFSET it paid for.
  const q = taskPageQuery.parse({ ...shape.query, pageNumber: String(shape.maxPage) });
  return (db) => listTaskPage(db, tenantId, q, q);
}

function executionMs(plan: string): number {
  return Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? Number.NaN);
}

function formatExplained(row: Row, explained: readonly ExplainedQuery[]): string[] {
  const sqlMs = explained.reduce((sum, q) => sum + executionMs(q.plan), 0);
  const slowest = explained.reduce((a, b) => (executionMs(b.plan) > executionMs(a.plan) ? b : a));
  const lines = [
    `\n=== ${row.scenario.name}: p99 ${row.result.p99Ms.toFixed(1)} ms (target ${row.scenario.targetP99Ms} ms)`,
    `    SQL execution ${sqlMs.toFixed(2)} ms per request, of which ${executionMs(slowest.plan).toFixed(2)} ms in: ${readableSql(slowest.sql).slice(0, 90)}`,
  ];
  for (const q of explained) lines.push(`\n-- ${readableSql(q.sql)}`, `-- params: ${JSON.stringify(q.params)}`, q.plan);
  return lines;
}

/**
 * For every missed target: EXPLAIN (ANALYZE, BUFFERS) of the SQL behind that request, run alone on
 * a warm cache. Shows whether the time goes to a statement (and which) or elsewhere.
 */
export async function investigateMisses(rows: readonly Row[], databaseUrl: string, tenantId: number, taskId: number): Promise<string[]> {
  const missed = rows.filter(missedTarget);
  if (missed.length === 0) return [];
  const lines = ['\nMissed targets: EXPLAIN (ANALYZE, BUFFERS) of the SQL Prisma issues for each (run alone, no load)'];
  const explainedShapes = new Set<string>();
  for (const row of missed) {
    // The concurrency-1 twin of a scenario issues the same SQL: its plans are shown once.
    const shape = JSON.stringify(row.scenario.shape);
    const work = routeQueries(row.scenario, tenantId, taskId);
    if (!work || explainedShapes.has(shape)) continue;
    explainedShapes.add(shape);
    lines.push(...formatExplained(row, await explainAll(databaseUrl, await captureSql(databaseUrl, work))));
  }
  return lines;
}

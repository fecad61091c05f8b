/**
 * EXPLAIN checks of the list scenarios: the plan of each list's SQL at the deepest page the load
 * asks for, printed as one line of its shape, and a check that the page's scans read about as many
 * rows as the page needs. A plan that walks an index and discards rows of other statuses (issue
 * 12: 83k rows read for a page of 50) fails the check whatever the latency on this machine says.
 */
import type { Db } from '../../src/db/prisma.js';
import { listTaskPage } from '../../src/modules/tasks/tasks.repository.js';
import { taskPageQuery } from '../../src/modules/tasks/tasks.schemas.js';
import { captureSql, explainJson, readableSql, type PlanNode } from './explain.js';
import type { BenchScenario } from './scenarios.js';

/** Rows the table and index scans of a plan read: those they passed on plus those their filters dropped, over every loop. */
export function rowsScanned(node: PlanNode): number {
  // Bitmap Index Scans feed a Bitmap Heap Scan, which counts the same rows with its table.
  const isTableScan = node['Relation Name'] !== undefined;
  const perLoop = node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0) + (node['Rows Removed by Index Recheck'] ?? 0);
  const own = isTableScan ? perLoop * node['Actual Loops'] : 0;
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child), 0);
}

/** One line per plan: node types nested, with the index or table each scan reads and its rows. */
export function planShape(node: PlanNode): string {
  const direction = node['Scan Direction'] === 'Backward' ? ' Backward' : '';
  const target = node['Index Name'] ? ` using ${node['Index Name']}` : node['Relation Name'] ? ` on ${node['Relation Name']}` : '';
  const removed = node['Rows Removed by Filter'] ? `, ${Math.round(node['Rows Removed by Filter'] * node['Actual Loops'])} removed by filter` : '';
  const rows = node['Relation Name'] !== undefined ? ` [${Math.round(node['Actual Rows'] * node['Actual Loops'])} rows${removed}]` : '';
  const children = node.Plans?.length ? `(${node.Plans.map(planShape).join(', ')})` : '';
  return `${node['Node Type']}${direction}${target}${rows}${children}`;
}

export interface PlanCheck {
  scenario: string;
  lines: string[];
  failed: boolean;
}

function distinctStatuses(query: Record<string, string | string[]>): number {
  const statuses = query.taskStatus;
  return statuses === undefined ? 1 : new Set([statuses].flat()).size;
}

/**
 * The plans of one list scenario. The page's statement may read, per status asked for (one
 * ordered scan each), three times the rows up to the end of the page, plus its rows by id; more
 * than that is a plan that discards rows it should never have touched.
 */
async function checkScenario(scenario: BenchScenario, databaseUrl: string, tenantId: number): Promise<PlanCheck> {
  if (scenario.shape.kind !== 'list') throw new Error(`${scenario.name} is not a list`);
  const query = { ...scenario.shape.query, pageNumber: String(scenario.shape.maxPage) };
  const q = taskPageQuery.parse(query);
  const captured = await captureSql(databaseUrl, (db: Db) => listTaskPage(db, tenantId, q, q));
  const plans = await explainJson(databaseUrl, captured);
  const needed = q.pageNumber * q.pageSize;
  const allowed = 3 * needed * distinctStatuses(scenario.shape.query) + 2 * q.pageSize;
  const lines = [`  ${scenario.name} (page ${q.pageNumber} of ${q.pageSize}):`];
  let failed = false;
  for (const plan of plans) {
    const scanned = rowsScanned(plan.root);
    const isPage = !/"TaskDailyCount"/.test(plan.sql) && /\bLIMIT\b/.test(plan.sql);
    const tooMany = isPage && scanned > allowed;
    failed ||= tooMany;
    lines.push(
      `    ${isPage ? 'page ' : 'total'} ${plan.executionMs.toFixed(2)} ms, ${scanned} rows read${isPage ? ` (at most ${allowed})` : ''}${tooMany ? '  << PLAN CHECK FAILED' : ''}: ${planShape(plan.root)}`,
    );
    if (tooMany) lines.push(`      ${readableSql(plan.sql).replace(/\s+/g, ' ')}`, `      params: ${JSON.stringify(plan.params)}`);
  }
  return { scenario: scenario.name, lines, failed };
}

/** Checks every distinct list shape among the scenarios (a concurrency-1 twin shares its plan). */
export async function checkListPlans(scenarios: readonly BenchScenario[], databaseUrl: string, tenantId: number): Promise<PlanCheck[]> {
  const seen = new Set<string>();
  const checks: PlanCheck[] = [];
  for (const scenario of scenarios) {
    const key = JSON.stringify(scenario.shape);
    if (scenario.shape.kind !== 'list' || seen.has(key)) continue;
    seen.add(key);
    checks.push(await checkScenario(scenario, databaseUrl, tenantId));
  }
  return checks;
}

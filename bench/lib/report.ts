import type { ScenarioResult } from './protocol.js';
import type { BenchScenario } from './scenarios.js';

export interface Row {
  scenario: BenchScenario;
  result: ScenarioResult;
  /** The same load on the peer, run right after. */
  peer?: ScenarioResult;
}

/** Missed when p99 is over the target, the rate under it, or any request failed (a fast error proves nothing). */
export function missedTarget(row: Row): boolean {
  const { targetP99Ms, targetRequestsPerSecond } = row.scenario;
  if (targetP99Ms === undefined && targetRequestsPerSecond === undefined) return false;
  return (
    row.result.errors > 0 ||
    (targetP99Ms !== undefined && !(row.result.p99Ms < targetP99Ms)) ||
    (targetRequestsPerSecond !== undefined && !(row.result.requestsPerSecond >= targetRequestsPerSecond))
  );
}

function verdict(row: Row): string {
  if (row.scenario.targetP99Ms === undefined && row.scenario.targetRequestsPerSecond === undefined) return '';
  return missedTarget(row) ? 'MISSED' : 'ok';
}

function target(scenario: BenchScenario): string {
  const parts = [
    scenario.targetRequestsPerSecond !== undefined ? `>= ${scenario.targetRequestsPerSecond}/s` : undefined,
    scenario.targetP99Ms !== undefined ? `p99 < ${scenario.targetP99Ms} ms` : undefined,
  ].filter((p) => p !== undefined);
  return parts.length ? parts.join(', ') : '-';
}

/** app / peer: above 1 the app is faster (rate) or slower (p99). */
function ratio(app: number, peer: number | undefined): string {
  return peer === undefined || !(peer > 0) ? '-' : `${(app / peer).toFixed(2)}x`;
}

const COLUMNS = ['scenario', 'conc', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms', 'peer req/s', 'peer p50', 'peer p99', 'req/s vs peer', 'p99 vs peer', 'target', ''] as const;

function cells(row: Row): string[] {
  const r = row.result;
  const p = row.peer;
  return [
    row.scenario.name,
    String(row.scenario.concurrency),
    String(r.requests),
    p?.errors ? `${r.errors} (peer ${p.errors})` : String(r.errors),
    r.requestsPerSecond.toFixed(1),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    p ? p.requestsPerSecond.toFixed(1) : '-',
    p ? p.p50Ms.toFixed(1) : '-',
    p ? p.p99Ms.toFixed(1) : '-',
    ratio(r.requestsPerSecond, p?.requestsPerSecond),
    ratio(r.p99Ms, p?.p99Ms),
    target(row.scenario),
    verdict(row),
  ];
}

/** A plain-text table: the first column left-aligned, numbers right-aligned. */
export function formatTable(rows: readonly Row[]): string {
  const table = [[...COLUMNS], ...rows.map(cells)];
  const widths = COLUMNS.map((_, i) => Math.max(...table.map((line) => line[i]!.length)));
  const format = (line: string[]) =>
    line
      .map((cell, i) => (i === 0 || i >= COLUMNS.length - 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [format(table[0]!), rule, ...table.slice(1).map(format)].join('\n');
}

export function formatErrors(rows: readonly Row[]): string[] {
  return rows.flatMap((r) => [
    ...(r.result.firstError !== undefined ? [`  ${r.scenario.name}: first error: ${r.result.firstError}`] : []),
    ...(r.peer?.firstError !== undefined ? [`  ${r.scenario.name} [peer]: first error: ${r.peer.firstError}`] : []),
  ]);
}

/** A line of the benchmark's report, on stdout. */
export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

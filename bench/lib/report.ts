import type { ScenarioResult } from './protocol.js';
import type { BenchScenario } from './scenarios.js';

export interface Row {
  scenario: BenchScenario;
  result: ScenarioResult;
}

/** Missed when p99 is over the target, or when any request failed (a fast error proves nothing). */
export function missedTarget(row: Row): boolean {
  const target = row.scenario.targetP99Ms;
  return target !== undefined && (row.result.errors > 0 || !(row.result.p99Ms < target));
}

function verdict(row: Row): string {
  if (row.scenario.targetP99Ms === undefined) return '';
  return missedTarget(row) ? 'MISSED' : 'ok';
}

const COLUMNS = ['scenario', 'conc', 'requests', 'errors', 'req/s', 'p50 ms', 'p99 ms', 'max ms', 'target', ''] as const;

function cells(row: Row): string[] {
  const r = row.result;
  return [
    row.scenario.name,
    String(row.scenario.concurrency),
    String(r.requests),
    String(r.errors),
    r.requestsPerSecond.toFixed(1),
    r.p50Ms.toFixed(1),
    r.p99Ms.toFixed(1),
    r.maxMs.toFixed(1),
    row.scenario.targetP99Ms !== undefined ? `p99 < ${row.scenario.targetP99Ms} ms` : '-',
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
  return rows.filter((r) => r.result.firstError !== undefined).map((r) => `  ${r.scenario.name}: first error: ${r.result.firstError}`);
}

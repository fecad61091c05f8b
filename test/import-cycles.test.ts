import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const srcDir = path.resolve('src');

/** Every TypeScript file under dir, generated code aside. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/**
 * The files each file imports, by their paths under root, type-only imports included: a cycle of
 * types is still two layers that each need the other.
 */
function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, false);
      const targets = importedFiles
        .map(({ fileName }) => fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => path.resolve(path.dirname(file), name).replace(/\.js$/, '.ts'))
        .filter((target) => known.has(target));
      return [path.relative(root, file), targets.map((target) => path.relative(root, target))];
    }),
  );
}

/** A file's folder under the root; a file directly in the root is a node of its own (main.ts, app-deps.ts...). */
function folderOf(file: string): string {
  const folder = path.dirname(file);
  return (folder === '.' ? file : folder).split(path.sep).join('/');
}

/** The folders each folder imports from (a folder's imports of its own files aside). */
function folderGraph(files: Map<string, string[]>): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of files) {
    const from = folderOf(file);
    const to = folders.get(from) ?? new Set<string>();
    for (const target of targets) if (folderOf(target) !== from) to.add(folderOf(target));
    folders.set(from, to);
  }
  return new Map([...folders].map(([folder, to]) => [folder, [...to]]));
}

/** Strongly connected components of more than one node (Tarjan's algorithm). */
function cycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/**
 * The folder cycles of a tree, as the folders each one joins. Below the HTTP modules lie the
 * models, the engines, the document entities (domain/), the queues, storage, outbound fetching
 * (net/) and credentials; above them the pipeline, observability's endpoints, the runtime and the
 * edge (main.ts, dev/). No exception is listed: a folder import against the layers fails here.
 */
function folderCycles(root: string): string[][] {
  return cycles(folderGraph(importGraph(root, sourceFiles(root))));
}

describe('module layering', () => {
  it('has no import cycle in src, type-only imports included', () => {
    expect(cycles(importGraph(srcDir, sourceFiles(srcDir)))).toEqual([]);
  });

  it('finds a cycle when there is one (the check itself)', () => {
    const graph = new Map([
      ['/a.ts', ['/b.ts']],
      ['/b.ts', ['/c.ts']],
      ['/c.ts', ['/a.ts']],
      ['/d.ts', ['/a.ts']],
    ]);
    expect(cycles(graph).map((c) => c.length)).toEqual([3]);
  });

  it('has no import cycle between folders under src, type-only imports included', () => {
    expect(folderCycles(srcDir)).toEqual([]);
  });

  it('finds a cycle between folders, through a type-only import and a file at the root (the check itself)', () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'folder-cycles-'));
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };
    try {
      // No file imports itself back, yet the folders do: runtime -> dev -> users -> pipeline -> runtime.
      write('runtime/infrastructure.ts', "import { startPostgres } from '../dev/postgres.js';\nexport const infra = startPostgres;\n");
      write('dev/postgres.ts', "export const startPostgres = () => 'pg';\n");
      write('dev/seed.ts', "import { invite } from '../modules/users/users.service.js';\nexport const seed = invite;\n");
      write('modules/users/users.service.ts', "import type { Queues } from '../../pipeline/queues.js';\nexport const invite = (queues: Queues) => queues;\n");
      write('pipeline/queues.ts', 'export type Queues = string[];\n');
      write('pipeline/worker.ts', "import { infra } from '../runtime/infrastructure.js';\nexport const worker = infra;\n");
      write('main.ts', "import { worker } from './pipeline/worker.js';\nexport const run = worker;\n");
      expect(cycles(importGraph(root, sourceFiles(root)))).toEqual([]);
      expect(folderCycles(root)).toEqual([['dev', 'modules/users', 'pipeline', 'runtime']]);
      // The runtime handed the local servers in (by main.ts) instead of importing dev/: no cycle left.
      write('runtime/infrastructure.ts', 'export const infra = (start: () => string) => start;\n');
      expect(folderCycles(root)).toEqual([]);
      // A file at the root is a node of its own: a cycle through it counts.
      write('config.ts', "import type { Queues } from './pipeline/queues.js';\nexport type Config = Queues;\n");
      write('pipeline/queues.ts', "import type { Config } from '../config.js';\nexport type Queues = Config[];\n");
      expect(folderCycles(root)).toEqual([['config.ts', 'pipeline']]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

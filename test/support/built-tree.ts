/**
 * The production tree as the image's final stage lays it out: `dist` compiled from
 * tsconfig.build.json (what `npm run build` runs), package.json, prisma/ (the migrations) and
 * public/ (the review page) beside it, node_modules linked, and no src/: whatever the compiled
 * service still read from the sources would fail here. No vitest import: benchmarks use it too.
 */
import { execFile } from 'node:child_process';
import { cp, symlink } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './processes.js';

const run = promisify(execFile);

export async function buildTree(dir: string): Promise<void> {
  await run(process.execPath, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', path.join(dir, 'dist')], { cwd: repoRoot });
  await cp(path.join(repoRoot, 'package.json'), path.join(dir, 'package.json'));
  await cp(path.join(repoRoot, 'prisma'), path.join(dir, 'prisma'), { recursive: true });
  await cp(path.join(repoRoot, 'public'), path.join(dir, 'public'), { recursive: true });
  await symlink(path.join(repoRoot, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
}

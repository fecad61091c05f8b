import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Which of the built-ins pdfjs' core-js replaces are still the ones the process started with, in a
 * fresh process that loads `modules` (one each time: this test's own process has loaded pdf.js
 * long before its first line).
 */
async function builtinsKeptAfterLoading(modules: string[]): Promise<Record<string, boolean>> {
  const script = [
    'const before = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };',
    ...modules.map((m) => `await import('./${m}');`),
    'const after = { push: Array.prototype.push, parse: JSON.parse, stringify: JSON.stringify };',
    'process.stdout.write(JSON.stringify(Object.fromEntries(Object.keys(before).map((k) => [k, before[k] === after[k]]))));',
  ].join(' ');
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: repoRoot });
  return JSON.parse(stdout) as Record<string, boolean>;
}

describe('the built-ins pdfjs replaces', () => {
  it('are the natives again once the PDF engine has loaded pdfjs', async () => {
    const [bare, engine] = await Promise.all([builtinsKeptAfterLoading(['node_modules/pdfjs-dist/legacy/build/pdf.mjs']), builtinsKeptAfterLoading(['src/engines/pdf.ts'])]);
    // The control: pdfjs loaded alone replaces them (else this test would prove nothing).
    expect(bare).toEqual({ push: false, parse: false, stringify: false });
    expect(engine).toEqual({ push: true, parse: true, stringify: true });
  });
});

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const mainTs = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

/** Runs `src/main.ts <args>` as the CLI would (through tsx), collecting its output. */
export function runCli(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', mainTs, ...args], { cwd: repoRoot, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts a long-running role; the caller stops it. */
export function startRole(args: string[], env: Record<string, string | undefined>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', mainTs, ...args], { cwd: repoRoot, env: cleanEnv(env) });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return Object.assign(child, { output: () => output });
}

/** Resolves with the exit code once the process has ended (null when a signal ended it). */
export function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The process environment without the service's own variables, plus `env`. */
function cleanEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const base = { ...process.env };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'PORT', 'DATA_DIR', 'SEED_CLIENT_ID', 'SEED_CLIENT_SECRET']) delete base[key];
  const merged: NodeJS.ProcessEnv = { ...base, LOG_LEVEL: 'warn' };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) merged[k] = v;
  return merged;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

export async function waitFor<T>(probe: () => Promise<T | undefined>, what: string, attempts = 240, delayMs = 250): Promise<T> {
  for (let i = 0; i < attempts; i += 1) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, delayMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

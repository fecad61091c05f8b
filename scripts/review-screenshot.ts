/**
 * Takes docs/review-page.png, the README's picture of the review page: `npm start` (the dev role)
 * on a data directory of its own, a real invoice of the public corpus (fakturoid/fakturoid-php's
 * sample invoice, MIT; bench/corpora/invoices-public) processed by the demo organization's invoice
 * workspace, and the page opened by the demo reviewer in Debian's chromium (playwright-core, no
 * browser download).
 *
 *   npx tsx scripts/review-screenshot.ts     (SHOT=file.png: elsewhere than docs/review-page.png;
 *                                             SHOT_SOURCE=invoice.pdf: another invoice)
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../test/support/browser.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = process.env.SHOT ?? path.join(root, 'docs', 'review-page.png');
const INVOICES_UNIVERSAL = 1;
const source = process.env.SHOT_SOURCE ?? path.join(root, 'bench', 'corpora', 'invoices-public', 'files', 'cz_fakturoid_20150009.pdf');
const TO_REVIEW = 3;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(root, '.data', 'screenshot-'));
  // The embedded Postgres runs as the `postgres` user when this runs as root: it must enter here.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(await freePort()), LOCAL_REDIS_PORT: String(await freePort()), LOG_LEVEL: 'warn', SOURCE_URL_ALLOW_PRIVATE: 'true', PUBLIC_BASE_URL: base };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SEED_CLIENT_ID', 'SEED_CLIENT_SECRET']) delete env[key];
  const dev = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'dev'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const browser = await launchChromium();
  const pdf = await readFile(source);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
    res.end(_req.method === 'HEAD' ? undefined : pdf);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await until(async () => ((await fetch(`${base}/health`)).ok ? true : undefined), 'npm start');
    const creds = JSON.parse(await readFile(path.join(dataDir, 'demo-credentials.json'), 'utf8')) as {
      clientId: string;
      clientSecret: string;
      reviewer: { email: string; password: string };
    };
    const tokenRes = await fetch(`${base}/connect/token`, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'WebAPI', client_id: creds.clientId, client_secret: creds.clientSecret }),
    });
    const headers = { authorization: `Bearer ${((await tokenRes.json()) as { access_token: string }).access_token}`, 'content-type': 'application/json' };
    const workspaces = (await (await fetch(`${base}/api/v1.0/external/sdworkspace/CurrentWorkspaces`, { headers })).json()) as Array<{ workspaceId: number; templateType: number }>;
    const workspaceId = workspaces.find((w) => w.templateType === INVOICES_UNIVERSAL)!.workspaceId;
    const created = await fetch(`${base}/api/v1.0/external/sdtask/process`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ workspaceId, displayName: path.basename(source), context: { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/invoice.pdf` } }),
    });
    const { taskId } = (await created.json()) as { taskId: number };
    await until(async () => {
      const status = (await (await fetch(`${base}/api/v1.0/external/sdtask/status?taskId=${taskId}`, { headers })).json()) as { taskStatus: number };
      return status.taskStatus === TO_REVIEW ? true : undefined;
    }, `task ${taskId} to be ready for review`);

    const page = await browser.newPage({ viewport: { width: 1440, height: 1280 } });
    await page.goto(`${base}/review/`);
    await page.fill('#login-form [name=email]', creds.reviewer.email);
    await page.fill('#login-form [name=password]', creds.reviewer.password);
    await page.click('#login-form button[type=submit]');
    await page.click(`button[data-task-id="${taskId}"]`);
    await page.locator('.page-image .word').first().waitFor();
    await until(async () => ((await page.locator('.page-image img').evaluate((img) => (img as unknown as { complete: boolean }).complete)) ? true : undefined), 'the page image');
    // The total focused: its words highlighted on the page, as a reviewer checking it sees them.
    await page.locator('input[data-category="InvoiceTotal"]').focus();
    await page.screenshot({ path: output });
    process.stdout.write(`wrote ${output}\n`);
  } finally {
    await browser.close();
    server.close();
    dev.kill('SIGTERM');
    await new Promise((resolve) => dev.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

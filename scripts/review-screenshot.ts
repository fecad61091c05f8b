/**
 * Takes docs/review-page.png, the README's picture of the review page: `npm start` (the dev role)
 * on a data directory of its own, a generated invoice PDF processed by the demo organization's
 * invoice workspace, and the page opened by the demo reviewer in Debian's chromium
 * (playwright-core, no browser download).
 *
 *   npx tsx scripts/review-screenshot.ts     (SHOT=file.png: elsewhere than docs/review-page.png)
 */
import { spawn } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('..', import.meta.url));
const output = process.env.SHOT ?? path.join(root, 'docs', 'review-page.png');
const CHROMIUM = '/usr/bin/chromium';
const INVOICES_UNIVERSAL = 1;
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

const INVOICE_HTML = `<!doctype html><html><head><style>
  body { font-family: 'DejaVu Sans', Arial, sans-serif; font-size: 12pt; margin: 48px; color: #222; }
  h1 { font-size: 22pt; margin: 0 0 4px; } .muted { color: #555; }
  table { border-collapse: collapse; width: 100%; margin-top: 28px; }
  th, td { border-bottom: 1px solid #bbb; padding: 6px 8px; text-align: left; } td.n, th.n { text-align: right; }
  .totals { margin-top: 18px; width: 45%; margin-left: auto; } .totals td { border: none; }
</style></head><body>
  <h1>Northwind Office Supplies Ltd</h1>
  <div class="muted">12 Harbour Street, Bristol BS1 4DJ, United Kingdom · VAT GB 123 4567 89</div>
  <p style="margin-top:28px">Invoice number: INV-2026-0417<br>Invoice date: 14 November 2026<br>Due date: 14 December 2026</p>
  <p>Bill to: Acme Trading GmbH, Hauptstrasse 5, 10115 Berlin, Germany<br>Customer VAT: DE 811 907 980</p>
  <table>
    <tr><th>Description</th><th class="n">Qty</th><th class="n">Unit price</th><th class="n">Amount</th></tr>
    <tr><td>Recycled printer paper A4, 5 reams</td><td class="n">4</td><td class="n">21.50</td><td class="n">86.00</td></tr>
    <tr><td>Ballpoint pens, blue, box of 50</td><td class="n">2</td><td class="n">12.90</td><td class="n">25.80</td></tr>
    <tr><td>Desk organiser, bamboo</td><td class="n">1</td><td class="n">34.20</td><td class="n">34.20</td></tr>
  </table>
  <table class="totals">
    <tr><td>Subtotal</td><td class="n">146.00 GBP</td></tr>
    <tr><td>VAT 20%</td><td class="n">29.20 GBP</td></tr>
    <tr><td><b>Total due</b></td><td class="n"><b>175.20 GBP</b></td></tr>
  </table>
  <p style="margin-top:28px">IBAN: GB33 BUKB 2020 1555 5555 55 · Payment within 30 days</p>
</body></html>`;

async function main(): Promise<void> {
  const dataDir = await mkdtemp(path.join(root, '.data', 'screenshot-'));
  // The embedded Postgres runs as the `postgres` user when this runs as root: it must enter here.
  await chmod(dataDir, 0o755);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: String(port), EMBEDDED_POSTGRES_PORT: String(await freePort()), LOCAL_REDIS_PORT: String(await freePort()), LOG_LEVEL: 'warn', SOURCE_URL_ALLOW_PRIVATE: 'true', PUBLIC_BASE_URL: base };
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'SEED_CLIENT_ID', 'SEED_CLIENT_SECRET']) delete env[key];
  const dev = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/main.ts'), 'dev'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const pdf = await (async () => {
    const page = await browser.newPage();
    await page.setContent(INVOICE_HTML);
    const bytes = await page.pdf({ format: 'A4', printBackground: true });
    await page.close();
    return bytes;
  })();
  const source = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': pdf.length });
    res.end(_req.method === 'HEAD' ? undefined : pdf);
  });
  await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
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
      body: JSON.stringify({ workspaceId, displayName: 'INV-2026-0417 Northwind', context: { url: `http://127.0.0.1:${(source.address() as AddressInfo).port}/invoice.pdf` } }),
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
    source.close();
    dev.kill('SIGTERM');
    await new Promise((resolve) => dev.once('exit', resolve));
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();

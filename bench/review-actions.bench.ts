/**
 * npm run bench:review: how many clicks and keys a reviewer needs on the reviewer page to fix an
 * invoice whose reading has two wrong fields and complete the review (goal: at most 8).
 *
 * The invoice is a one-page PDF drawn by pdf-lib (test/support/review-invoice.ts) and read by the
 * invoice model in this process, as the detect stage reads it; two fields of that reading are
 * then made wrong the way harder prints go wrong (bench/lib/review-actions.ts: the due date not
 * found, the total read at the subtotal's place with a low confidence), and the task is stored in
 * review as the tests seed theirs. The app (api only) runs in this process against Postgres and
 * Redis as `npm start` finds them, in the docproc_bench database; the page runs in Debian's
 * chromium through playwright-core. The scripted reviewer looks at every field the page marks
 * (bench/lib/review-actions.ts, scriptedReview); opening the task from the list is one more click,
 * reported apart. The stored edits are checked: both values, each with the place pointed at.
 */
import { expandEntities } from '../src/domain/stored-entities.js';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/migrate.js';
import { nameOf, TaskStatus, TemplateType } from '../src/domain/enums.js';
import { createTenant } from '../src/modules/tenants/tenants.service.js';
import { launchChromium, logIn } from '../test/support/browser.js';
import { createUser, seedDetectedTask } from '../test/support/review.js';
import { reviewInvoice } from '../test/support/review-invoice.js';
import { benchConfig, createBenchServices, openBenchInfrastructure } from './lib/infra.js';
import { FIXES, pageImageShown, REVIEW_ACTIONS_GOAL, scriptedReview, withTwoWrongFields } from './lib/review-actions.js';
import { say } from './lib/report.js';

async function main(): Promise<void> {
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-review-'));
  const infraConfig = await benchConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  const infra = await openBenchInfrastructure(infraConfig, (line) => say(`infrastructure: ${line}`));
  const config = { ...infraConfig, DATA_DIR: path.join(scratch, 'data') };
  await migrate(infra.databaseUrl);
  const services = await createBenchServices(config, infra);
  const app = await buildApp(services, { logger: pino({ level: 'warn' }) });
  const browser = await launchChromium();
  try {
    const baseUrl = await app.listen({ host: '127.0.0.1', port: 0 });
    const tenant = await createTenant(services.prisma, { name: `bench-review-${randomUUID().slice(0, 8)}`, secretTtlDays: 1, defaultTemplate: TemplateType.InvoicesUniversal });
    const user = await createUser(services, tenant);
    const { pdf, chunks } = await reviewInvoice();
    const wrong = withTwoWrongFields(chunks);
    const task = await seedDetectedTask(services, tenant, { source: pdf, mimeType: 'application/pdf', chunks: wrong }, { assignedUsers: [user.email] });

    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const problems: string[] = [];
    page.on('pageerror', (err) => problems.push(err.message));
    await logIn(page, baseUrl, user);
    await page.click(`button[data-task-id="${task.id}"]`);
    await pageImageShown(page);
    const { actions, log } = await scriptedReview(page);
    await page.waitForFunction((id) => document.querySelector('#message')?.textContent?.includes(`Review of task #${id} completed`), task.id, { timeout: 20_000 });

    const stored = expandEntities((await services.prisma.documentChunk.findFirstOrThrow({ where: { taskId: task.id, chunkNumber: 1 } })).entities);
    const status = (await services.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).taskStatus;
    const fixed = FIXES.map((fix) => {
      const entity = stored.find((e) => e.type === 'Field' && e.category === fix.category);
      return { ...fix, right: entity?.keyValues[0]?.content === fix.content, placed: entity?.placedByReviewer === true };
    });
    say(`reviewer page, one invoice with two wrong fields (${FIXES.map((f) => f.category).join(', ')}):`);
    say(`  actions to fix both and complete: ${actions} (goal <= ${REVIEW_ACTIONS_GOAL}); opening the task from the list: 1 more click`);
    say(`  the actions: ${log.join(' | ')}`);
    for (const f of fixed) say(`  ${f.category}: ${f.right ? 'right' : 'WRONG'}, ${f.placed ? 'with the place pointed at' : 'WITHOUT a place'}`);
    say(`  task status after the review: ${nameOf(TaskStatus, status)}`);
    if (problems.length) say(`  page errors: ${problems.join('; ')}`);
    const ok = actions <= REVIEW_ACTIONS_GOAL && fixed.every((f) => f.right && f.placed) && status === TaskStatus.ExportCompleted && problems.length === 0;
    say(ok ? 'goal met' : 'goal MISSED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    await browser.close();
    await app.close();
    await services.close();
    await infra.stop();
    await rm(scratch, { recursive: true, force: true });
  }
}

/** What the page function above reads of the browser's DOM (the project's TypeScript has no DOM library). */
declare const document: { querySelector(selector: string): { textContent: string | null } | null };

await main();

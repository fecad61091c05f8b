/**
 * bench:learning (issue 16): does one reviewed document of a vendor teach the next one?
 *
 * Pairs of generated invoices per vendor (bench/learning/vendor-documents.ts: several layouts and
 * languages, vendor-specific labels, text-layer PDFs and scans of them) go through the running
 * service over HTTP: in organization L the first of each pair is recognised, then reviewed and
 * corrected through the reviewer API (which teaches L's vendor profiles), then the second is
 * recognised. Organization G, which has no profiles, recognises the same second documents: the
 * general model alone. Vendors no review has taught are recognised in both (feature on in L, off
 * in G). Field accuracy of each is printed, per group and per field.
 *
 * Then real documents (bench/learning/real-part.ts): sellers of several real invoices (the dev
 * e-invoices of the shared corpora, read from their printed page, and the public invoices of
 * bench/corpora/invoices-public); the first of each seller reviewed on its page, with the place of
 * each correction; the later ones recognised before and after that one review.
 *
 * Real Postgres, Redis, workers and engines (the environment as `npm start` finds them); its own
 * database (docproc_bench_learning) and queue prefix; files served from a loopback server.
 * Options (environment): BENCH_ONLY=generated|real (one part), BENCH_CORPORA=dir (default
 * ../shared/corpora beside the repository).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from '../src/app.js';
import { migrate } from '../src/db/migrate.js';
import { TemplateType, UserStatus } from '../src/domain/enums.js';
import { renderPdfPage } from '../src/engines/pdf.js';
import { hashSecret } from '../src/modules/auth/secret-hash.js';
import { createTenant, createWorkspace } from '../src/modules/tenants/tenants.service.js';
import { startWorkers } from '../src/pipeline/worker.js';
import { createServices } from '../src/runtime/services.js';
import { fileURLToPath } from 'node:url';
import { startFileServer } from '../test/support/file-server.js';
import { benchConfig, openBenchInfrastructure } from './lib/infra.js';
import { PUBLIC_INVOICES_FOLDER } from './accuracy/public-invoices.js';
import { realDocumentsPart } from './learning/real-part.js';
import { call, exportedFields, judge, REVIEW, reviewAndCorrect, submit, waitRecognized } from './learning/review-loop.js';
import { documentPdf, scannedCopy, SCORED_FIELDS, UNSEEN_VENDORS, VENDORS, vendorDocument, type ScoredField, type VendorDocument } from './learning/vendor-documents.js';

const say = (line: string) => process.stdout.write(`${line}\n`);
const DATABASE = 'docproc_bench_learning';
const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const corpora = process.env.BENCH_CORPORA ?? path.resolve(repository, '../shared/corpora');
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'generated' && only !== 'real') throw new Error(`BENCH_ONLY must be generated or real, got ${only}`);

interface Case {
  name: string;
  doc: VendorDocument;
  scanned: boolean;
}

async function main(): Promise<void> {
  const started = Date.now();
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'bench-learning-'));
  const infraConfig = await benchConfig({ ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' });
  // Postgres and Redis as `npm start` finds them (an embedded Postgres keeps its data under DATA_DIR); the run's files in a scratch directory.
  const infra = await openBenchInfrastructure(infraConfig, (line) => say(`infrastructure: ${line}`), DATABASE);
  const config = { ...infraConfig, DATA_DIR: path.join(scratch, 'data') };
  await migrate(infra.databaseUrl);
  const queuePrefix = `bench-learning-${randomUUID().slice(0, 8)}`;
  const services = await createServices(config, infra, { queuePrefix });
  const log = pino({ level: 'warn' });
  const app = await buildApp(services, { logger: log });
  await app.ready();
  const workers = await startWorkers({ prisma: services.prisma, config, queues: services.queues, blobs: services.blobs, log }, { redisUrl: infra.redisUrl, prefix: queuePrefix });

  // The documents: a pair per vendor as text, and a scanned pair for every other vendor; one document per unseen vendor, as text and scanned.
  const render = async (pdf: Buffer, dpi: number) => {
    const file = path.join(scratch, `render-${randomUUID()}.pdf`);
    await writeFile(file, pdf);
    return renderPdfPage(file, 1, dpi);
  };
  const served: Record<string, { body: Buffer; type: string }> = {};
  const add = async (name: string, doc: VendorDocument, scanned: boolean, seed: number): Promise<Case> => {
    const pdf = await documentPdf(doc);
    served[`/${name}.pdf`] = { body: scanned ? await scannedCopy(pdf, render, seed) : pdf, type: 'application/pdf' };
    return { name, doc, scanned };
  };
  const pairs: Array<[Case, Case]> = [];
  for (const [i, vendor] of (only === 'real' ? [] : VENDORS).entries()) {
    pairs.push([await add(`${vendor.key}-1`, vendorDocument(vendor, 1), false, 0), await add(`${vendor.key}-2`, vendorDocument(vendor, 2), false, 0)]);
    if (i % 2 === 0) pairs.push([await add(`${vendor.key}-scan-1`, vendorDocument(vendor, 3), true, 100 + i), await add(`${vendor.key}-scan-2`, vendorDocument(vendor, 4), true, 200 + i)]);
  }
  const unseen: Case[] = [];
  for (const [i, vendor] of (only === 'real' ? [] : UNSEEN_VENDORS).entries()) {
    unseen.push(await add(`${vendor.key}`, vendorDocument(vendor, 1), false, 0));
    if (i % 2 === 0) unseen.push(await add(`${vendor.key}-scan`, vendorDocument(vendor, 2), true, 300 + i));
  }
  const files = await startFileServer(served);
  say(`documents: ${pairs.length} pairs (${pairs.filter(([a]) => a.scanned).length} scanned) of ${VENDORS.length} vendors, ${unseen.length} of ${UNSEEN_VENDORS.length} unseen vendors; load average ${os.loadavg()[0]!.toFixed(1)} on ${os.cpus().length} cores`);

  const org = async (label: string) => {
    const tenant = await createTenant(services.prisma, { name: `bench-learning-${label}-${randomUUID().slice(0, 8)}`, secretTtlDays: 1 });
    const token = await call(app, { method: 'POST', url: '/connect/token', payload: { grant_type: 'client_credentials', scope: 'WebAPI', client_id: tenant.clientId, client_secret: tenant.clientSecret } }, 'token');
    const { workspaceId } = await createWorkspace(services.prisma, { tenantId: tenant.tenantId, name: 'Invoices', templateType: TemplateType.InvoicesUniversal });
    const email = `reviewer-${randomUUID()}@example.com`;
    const password = randomUUID();
    await services.prisma.user.create({
      data: { tenantId: tenant.tenantId, email, name: 'Bench Reviewer', roleName: 'Administrator', status: UserStatus.Active, emailConfirmed: true, passwordHash: await hashSecret(password) },
    });
    const login = await call(app, { method: 'POST', url: `${REVIEW}/login`, payload: { email, password } }, 'reviewer login');
    return { tenantId: tenant.tenantId, workspaceId, headers: { authorization: `Bearer ${token.json().access_token}` }, reviewer: { authorization: `Bearer ${login.json().access_token}` } };
  };
  type Org = Awaited<ReturnType<typeof org>>;
  const recogniseAt = async (o: Org, name: string, url: string) => {
    const taskId = await submit(app, o.headers, o.workspaceId, url);
    const status = await waitRecognized(app, o.headers, taskId, 900_000);
    if (status !== 3) throw new Error(`${name}: recognition ended in status ${status}`);
    return { taskId, fields: await exportedFields(app, o.headers, taskId) };
  };
  const recognise = (o: Org, c: Case) => recogniseAt(o, c.name, files.url(`/${c.name}.pdf`));

  try {
    if (only !== 'real') await generatedPart();
    if (only !== 'generated') {
      await realDocumentsPart({ app, say, corpora, publicFolder: path.join(repository, PUBLIC_INVOICES_FOLDER), served, url: files.url, org, recognise: recogniseAt });
    }
    say('');
    say(`total ${((Date.now() - started) / 1000).toFixed(0)} s; load average now ${os.loadavg()[0]!.toFixed(1)}`);
  } finally {
    await workers.close();
    await app.close();
    await files.close();
    await Promise.all(Object.values(services.queues).map((q) => q.obliterate({ force: true }).catch(() => undefined)));
    await services.close();
    await infra.stop();
    await rm(scratch, { recursive: true, force: true });
  }

  async function generatedPart(): Promise<void> {
    const learning = await org('L');
    const general = await org('G');
    // 1. First documents in L, and the general model's reading of the second documents and the unseen vendors in G.
    let t = Date.now();
    const [firsts, generalSeconds, generalUnseen] = await Promise.all([
      Promise.all(pairs.map(([first]) => recognise(learning, first))),
      Promise.all(pairs.map(([, second]) => recognise(general, second))),
      Promise.all(unseen.map((c) => recognise(general, c))),
    ]);
    say(`recognised ${pairs.length * 2 + unseen.length} documents in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    // 2. The reviews of the first documents, through the reviewer API.
    t = Date.now();
    let corrections = 0;
    for (const [i, [first]] of pairs.entries()) corrections += (await reviewAndCorrect(app, learning.reviewer, firsts[i]!.taskId, first.doc.expected)).corrected.length;
    say(`reviewed ${pairs.length} first documents (${corrections} fields corrected, filled in or added) in ${((Date.now() - t) / 1000).toFixed(1)} s`);
    // 3. The second documents and the unseen vendors in L, with its profiles.
    t = Date.now();
    const [profiledSeconds, profiledUnseen] = await Promise.all([
      Promise.all(pairs.map(([, second]) => recognise(learning, second))),
      Promise.all(unseen.map((c) => recognise(learning, c))),
    ]);
    say(`recognised ${pairs.length + unseen.length} documents with profiles in ${((Date.now() - t) / 1000).toFixed(0)} s`);

    const firstScores = pairs.map(([first], i) => judge(firsts[i]!.fields, first.doc.expected));
    const withScores = pairs.map(([, second], i) => judge(profiledSeconds[i]!.fields, second.doc.expected));
    const withoutScores = pairs.map(([, second], i) => judge(generalSeconds[i]!.fields, second.doc.expected));
    const unseenOn = unseen.map((c, i) => judge(profiledUnseen[i]!.fields, c.doc.expected));
    const unseenOff = unseen.map((c, i) => judge(generalUnseen[i]!.fields, c.doc.expected));
    const fromProfile = profiledSeconds.reduce((n, r) => n + [...r.fields.values()].filter((e) => e.vendorProfile?.fromProfile).length, 0);
    const unseenMatched = profiledUnseen.filter((r) => [...r.fields.values()].some((e) => e.vendorProfile)).length;

    const rate = (scores: Array<Record<ScoredField, boolean>>, fields: readonly ScoredField[] = SCORED_FIELDS) => {
      const all = scores.flatMap((s) => fields.map((f) => s[f]));
      return { right: all.filter(Boolean).length, total: all.length };
    };
    const pct = ({ right, total }: { right: number; total: number }) => (total ? `${((100 * right) / total).toFixed(1)}% (${right}/${total})` : '-');
    const only = <T>(items: T[], scanned: boolean, of: Case[]) => items.filter((_, i) => of[i]!.scanned === scanned);
    const seconds = pairs.map(([, s]) => s);

    say('');
    say('Field accuracy on the second document of a vendor (11 fields each)');
    say(`  ${'documents'.padEnd(28)}${'general model alone'.padEnd(26)}with the vendor's profile`);
    for (const [label, scanned] of [['text-layer PDFs', false], ['scans', true]] as const) {
      say(`  ${label.padEnd(28)}${pct(rate(only(withoutScores, scanned, seconds))).padEnd(26)}${pct(rate(only(withScores, scanned, seconds)))}`);
    }
    say(`  ${'all'.padEnd(28)}${pct(rate(withoutScores)).padEnd(26)}${pct(rate(withScores))}`);
    say(`  (first documents, before any review: ${pct(rate(firstScores))}; ${fromProfile} values of second documents came from a profile)`);
    say('');
    say('Per field, second documents: general model alone -> with the profile');
    for (const f of SCORED_FIELDS) say(`  ${f.padEnd(14)}${pct(rate(withoutScores, [f])).padEnd(18)}-> ${pct(rate(withScores, [f]))}`);
    say('');
    say('Vendors never seen (no profile of theirs)');
    say(`  ${'feature off (organization without profiles)'.padEnd(52)}${pct(rate(unseenOff))}`);
    say(`  ${'feature on (organization with the profiles above)'.padEnd(52)}${pct(rate(unseenOn))}`);
    say(`  documents of unseen vendors matched to a profile: ${unseenMatched} of ${unseen.length}`);
    const wrong = pairs.flatMap(([, s], i) => SCORED_FIELDS.filter((f) => !withScores[i]![f]).map((f) => `${s.name}:${f}`));
    if (wrong.length) say(`  wrong with profiles: ${wrong.join(', ')}`);
  }
}

await main();

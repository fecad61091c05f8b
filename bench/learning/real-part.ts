/**
 * bench:learning on real documents: per seller of several real invoices (real-sellers.ts), the
 * first invoice is recognised and reviewed on its page (page-reviewer.ts: every wrong or missing
 * labelled field corrected, with the place it is printed), then the seller's later invoices are
 * recognised with the profile that review taught. An organization without profiles recognises the
 * same later invoices: the fields right before and after one review, per seller and overall.
 */
import type { FastifyInstance } from 'fastify';
import { LABELLED_INVOICE_FIELDS } from '../accuracy/invoice-labels.js';
import { judge } from '../accuracy/score.js';
import type { Entity } from '../../src/domain/entities.js';
import type { ServedFile } from '../../test/support/file-server.js';
import { reportedOf, reviewOnPage } from './page-reviewer.js';
import { loadRealSellers, type RealInvoice, type Seller } from './real-sellers.js';

interface Org {
  reviewer: { authorization: string };
}

export interface RealPartContext<O extends Org> {
  app: FastifyInstance;
  say: (line: string) => void;
  corpora: string;
  publicFolder: string;
  /** Files the loopback server serves, by path; `url` their address. */
  served: Record<string, ServedFile>;
  url: (path: string) => string;
  /** An organization of its own (an Invoices workspace, a reviewer). */
  org: (label: string) => Promise<O>;
  recognise: (org: O, name: string, url: string) => Promise<{ taskId: number; fields: Map<string, Entity> }>;
}

type Score = { right: number; total: number };
const pct = ({ right, total }: Score) => (total ? `${((100 * right) / total).toFixed(1)}% (${right}/${total})` : '-');
const add = (a: Score, b: Score): Score => ({ right: a.right + b.right, total: a.total + b.total });

/** The labelled fields right on one invoice, and the names of the wrong ones. */
function scoreOf(invoice: RealInvoice, fields: ReadonlyMap<string, Entity>): Score & { wrong: string[] } {
  const stated = LABELLED_INVOICE_FIELDS.filter((f) => invoice.expected[f]);
  const wrong = stated.filter((f) => !judge(invoice.name, f, invoice.expected[f], reportedOf(fields.get(f))).right);
  return {
    right: stated.length - wrong.length,
    total: stated.length,
    wrong: wrong.map((f) => {
      const entity = fields.get(f);
      const got = entity?.keyValues[0];
      const source = entity?.vendorProfile ? ` [${entity.vendorProfile.fromProfile ? 'profile' : 'model'}, ${entity.vendorProfile.agreement}]` : '';
      return `${f}=${got ? JSON.stringify(got.contentNormalized ?? got.content) : 'none'}${source} (want ${invoice.expected[f]!.value})`;
    }),
  };
}

export async function realDocumentsPart<O extends Org>(ctx: RealPartContext<O>): Promise<void> {
  const { say } = ctx;
  const { sellers, skipped } = await loadRealSellers(ctx.corpora, ctx.publicFolder);
  for (const reason of skipped) say(`real documents: part skipped, ${reason}`);
  if (sellers.length === 0) return;
  const pathOf = (seller: Seller, invoice: RealInvoice) => `/real/${seller.corpus}/${invoice.name}`;
  for (const seller of sellers) {
    for (const invoice of seller.invoices) ctx.served[pathOf(seller, invoice)] = { body: await invoice.read(), type: invoice.type };
  }
  const later = sellers.reduce((n, s) => n + s.invoices.length - 1, 0);
  say('');
  say(`Real documents: ${sellers.length} sellers of several invoices, ${sellers.length} reviewed, ${later} later invoices`);

  // One organization per corpus learns (a corpus's sellers share its workspace, as a customer's vendors do); one never does.
  const learners = new Map<Seller['corpus'], O>();
  for (const corpus of new Set(sellers.map((s) => s.corpus))) learners.set(corpus, await ctx.org(`R-${corpus}`));
  const general = await ctx.org('R-general');
  const read = (org: O, seller: Seller, invoice: RealInvoice) => ctx.recognise(org, invoice.name, ctx.url(pathOf(seller, invoice)));

  const [firsts, before] = await Promise.all([
    Promise.all(sellers.map((s) => read(learners.get(s.corpus)!, s, s.invoices[0]!))),
    Promise.all(sellers.map((s) => Promise.all(s.invoices.slice(1).map((i) => read(general, s, i))))),
  ]);
  say(`  recognised ${sellers.length} first and ${later} later invoices (general model)`);
  const reviews = [];
  for (const [i, seller] of sellers.entries()) reviews.push(await reviewOnPage(ctx.app, learners.get(seller.corpus)!.reviewer, firsts[i]!.taskId, seller.invoices[0]!.expected));
  say(`  reviewed ${sellers.length} first invoices (${reviews.reduce((n, r) => n + r.corrected.length, 0)} fields corrected or filled in)`);
  const after = await Promise.all(sellers.map((s) => Promise.all(s.invoices.slice(1).map((i) => read(learners.get(s.corpus)!, s, i)))));

  say(`  ${'seller (corpus)'.padEnd(58)}${'first, before review'.padEnd(24)}${'later: general model'.padEnd(24)}later: after one review`);
  let [firstAll, beforeAll, afterAll] = [{ right: 0, total: 0 }, { right: 0, total: 0 }, { right: 0, total: 0 }];
  const misses: string[] = [];
  for (const [i, seller] of sellers.entries()) {
    const first = scoreOf(seller.invoices[0]!, firsts[i]!.fields);
    const laterInvoices = seller.invoices.slice(1);
    const b = laterInvoices.map((inv, j) => scoreOf(inv, before[i]![j]!.fields)).reduce(add, { right: 0, total: 0 });
    const scoredAfter = laterInvoices.map((inv, j) => ({ inv, s: scoreOf(inv, after[i]![j]!.fields) }));
    const a = scoredAfter.map((x) => x.s).reduce(add, { right: 0, total: 0 });
    [firstAll, beforeAll, afterAll] = [add(firstAll, first), add(beforeAll, b), add(afterAll, a)];
    const label = `${seller.name.slice(0, 42)} (${seller.corpus === 'einvoices-dev' ? 'dev' : 'public'}, ${seller.invoices.length})`;
    say(`  ${label.padEnd(58)}${pct(first).padEnd(24)}${pct(b).padEnd(24)}${pct(a)}`);
    const review = reviews[i]!;
    misses.push(`  ${seller.name}: review of ${seller.invoices[0]!.name} corrected ${review.corrected.join(', ') || 'nothing'}${review.unplaced.length ? `; not found on the page: ${review.unplaced.join(', ')}` : ''}`);
    for (const p of review.places) misses.push(`      ${p.field} pointed at "${p.printed}" beside "${p.label}"`);
    for (const { inv, s } of scoredAfter) if (s.wrong.length) misses.push(`      after: ${inv.name}: ${s.wrong.join('; ')}`);
  }
  say(`  ${'all'.padEnd(58)}${pct(firstAll).padEnd(24)}${pct(beforeAll).padEnd(24)}${pct(afterAll)}`);
  say('');
  say('Reviews and the later invoices still wrong after them');
  for (const line of misses) say(line);
}

/**
 * npm run bench:accuracy: how often the receipt and invoice models read a field right, on files
 * (no HTTP): the real dev receipts of ../shared/corpora/receipts-dev (skipped with a message when
 * absent; never copied into the repository) and our labelled invoices, generated here from a seed
 * in seven languages, nine layouts and six deliveries (text PDF to low-resolution photo), whose
 * expected fields are kept in bench/accuracy/invoices.expected.json; and the labelled public
 * invoices of bench/corpora/invoices-public (real invoices from open-source repositories, skipped
 * with a message when the folder is absent), the printed page of the e-invoices (their embedded
 * data removed in memory) reported apart from the text PDFs, scans and images.
 *
 * Prints per field the share right (normalised: text without case, spaces and punctuation;
 * amounts and dates by value) and raw-exact (as printed), fields reported where the document has
 * none, the calibration of confidence (of the fields reported at >= 0.9, how many are right) and
 * seconds per page.
 *
 * The dev e-invoices of ../shared/corpora/einvoices-dev (skipped with a message when absent) are
 * read twice: as published, their invoice data embedded (the data path), and with the data
 * removed (the printed path), each reported apart.
 *
 * Options (environment): BENCH_ONLY=receipts|invoices|einvoices|public-invoices, BENCH_LIMIT=n (first n documents of each
 * set), BENCH_MATCH=regex (only the documents whose name matches, e.g. "letterhead" or "^005$"),
 * BENCH_BATCH=n[,n...] (only the public invoices of those batches: a new batch's first sight),
 * BENCH_INVOICES=n (how many invoices; 72 by default), BENCH_VERBOSE=1 (every wrong field),
 * BENCH_JSON=file (every outcome, to compare runs), BENCH_KEEP=dir (keep the generated invoices),
 * BENCH_TURN=degrees (every invoice scan and photo turned that far, either way, instead of up to 1.5),
 * BENCH_WRITE_EXPECTED=1 (rewrite the expected fields after a deliberate generator change),
 * BENCH_CORPORA=dir (default ../shared/corpora beside the repository), BENCH_OCR_COMPARE=1 (each
 * receipt also OCRed by PP-OCR and by tesseract alone, side by side: their seconds per page, wall
 * and CPU, and the model's CPU per page with each, tesseract's OCR taking the place of PP-OCR's).
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TemplateType } from '../src/domain/enums.js';
import { pdfInfo } from '../src/engines/pdf.js';
import { invoicesUniversalModel, receiptsModel } from '../src/models/invoice/invoice.js';
import { EINVOICE_FIELDS, loadDevEInvoices } from './accuracy/einvoices.js';
import { cpuSeconds, loadDevReceipts, ocrSeconds, RECEIPT_FIELDS } from './accuracy/receipts.js';
import { runModel, type ModelRun } from './accuracy/run-model.js';
import { formatCalibration, formatTally, judge, tally, type ExpectedField, type FieldOutcome } from './accuracy/score.js';
import { chromiumAvailable, launchBrowser, renderInvoice } from './accuracy/invoices/render.js';
import { generateInvoices, INVOICE_FIELDS, type InvoiceSpec } from './accuracy/invoices/spec.js';
import { fileKindOf, loadPublicInvoices, pageCount, printedOnlyCopy, PUBLIC_INVOICE_FIELDS, PUBLIC_INVOICES_FOLDER } from './accuracy/public-invoices.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repository = path.resolve(here, '..');
const corpora = process.env.BENCH_CORPORA ?? path.resolve(repository, '../shared/corpora');
const only = process.env.BENCH_ONLY;
const limit = process.env.BENCH_LIMIT ? Number(process.env.BENCH_LIMIT) : Infinity;
const verbose = process.env.BENCH_VERBOSE === '1';
const compareOcr = process.env.BENCH_OCR_COMPARE === '1';
const match = process.env.BENCH_MATCH ? new RegExp(process.env.BENCH_MATCH) : undefined;
const batches = process.env.BENCH_BATCH ? new Set(process.env.BENCH_BATCH.split(',').map(Number)) : undefined;
const INVOICE_SEED = 13;
const invoiceCount = Number(process.env.BENCH_INVOICES ?? 72);
const expectedFile = path.join(here, 'accuracy', 'invoices.expected.json');
const publicInvoicesFolder = path.join(repository, PUBLIC_INVOICES_FOLDER);
/** Pages read of a public invoice: its totals and bank details may sit on a later page (four for the longest). */
const PUBLIC_INVOICE_PAGES = 4;
const runs = (set: string) => !only || only === set;

interface SetResult {
  name: string;
  outcomes: FieldOutcome[];
  seconds: number;
  pages: number;
}

function outcomesOf(document: string, fields: readonly string[], expected: Partial<Record<string, ExpectedField>>, run: ModelRun): FieldOutcome[] {
  return fields.map((field) => judge(document, field, expected[field], run.fields.get(field)));
}

function report(set: SetResult, fields: readonly string[], groups?: Map<string, string>): void {
  console.log(`\n${set.name}: ${new Set(set.outcomes.map((o) => o.document)).size} documents, ${set.pages} pages, ${(set.seconds / set.pages).toFixed(2)} s/page`);
  console.log(formatTally(tally(set.outcomes, fields)));
  console.log(formatCalibration(set.outcomes));
  if (groups) {
    const byGroup = new Map<string, FieldOutcome[]>();
    for (const outcome of set.outcomes) {
      const group = groups.get(outcome.document) ?? '?';
      byGroup.set(group, [...(byGroup.get(group) ?? []), outcome]);
    }
    const parts = [...byGroup].sort().map(([group, outcomes]) => {
      const stated = outcomes.filter((o) => o.expected);
      return `${group} ${((100 * stated.filter((o) => o.right).length) / stated.length).toFixed(0)}%`;
    });
    console.log(`  by group: ${parts.join(', ')}`);
  }
  if (verbose) {
    for (const o of set.outcomes.filter((o) => !o.right)) {
      console.log(`  ✗ ${o.document} ${o.field}: expected ${JSON.stringify(o.expected?.printed ?? null)} got ${JSON.stringify(o.reported?.content ?? null)} (${o.reported?.contentNormalized ?? '-'}, ${o.reported?.confidence ?? '-'})`);
    }
  }
}

async function receiptsSet(): Promise<SetResult | undefined> {
  const receipts = await loadDevReceipts(corpora);
  if (!receipts) {
    console.log(`\nreceipts-dev: skipped, ${path.join(corpora, 'receipts-dev')} is absent (the shared corpora sit beside the repository)`);
    return undefined;
  }
  const set: SetResult = { name: 'receipts-dev (Receipts model, real scans)', outcomes: [], seconds: 0, pages: 0 };
  const ocr = { paddle: { wall: 0, cpu: 0 }, tesseract: { wall: 0, cpu: 0 } };
  let modelCpu = 0;
  for (const receipt of receipts.filter((r) => !match || match.test(r.name)).slice(0, limit)) {
    const cpuStarted = cpuSeconds();
    const run = await runModel(receiptsModel, TemplateType.Receipts, receipt.image, 'image');
    modelCpu += cpuSeconds() - cpuStarted;
    set.outcomes.push(...outcomesOf(receipt.name, RECEIPT_FIELDS, receipt.expected, run));
    set.seconds += run.seconds;
    set.pages += run.pages;
    if (compareOcr) {
      for (const recogniser of ['paddle', 'tesseract'] as const) {
        const { wall, cpu } = await ocrSeconds(receipt.image, recogniser);
        ocr[recogniser].wall += wall;
        ocr[recogniser].cpu += cpu;
      }
    }
  }
  if (compareOcr && set.pages > 0) {
    const line = (what: 'wall' | 'cpu') => {
      const [paddle, tesseract] = [ocr.paddle[what] / set.pages, ocr.tesseract[what] / set.pages];
      return `PP-OCR ${paddle.toFixed(2)} s/page, tesseract ${tesseract.toFixed(2)} s/page (${(paddle / tesseract).toFixed(2)}x)`;
    };
    console.log(`\nreceipts OCR alone, side by side: wall ${line('wall')}; CPU ${line('cpu')}`);
    const [paddleModel, tesseractModel] = [modelCpu / set.pages, (modelCpu - ocr.paddle.cpu + ocr.tesseract.cpu) / set.pages];
    console.log(`receipts model CPU: ${paddleModel.toFixed(2)} s/page with PP-OCR, ${tesseractModel.toFixed(2)} s/page with tesseract's OCR instead (${(paddleModel / tesseractModel).toFixed(2)}x)`);
  }
  return set;
}

async function eInvoiceSets(): Promise<{ data: SetResult; printed: SetResult } | undefined> {
  const invoices = await loadDevEInvoices(corpora);
  if (!invoices) {
    console.log(`\neinvoices-dev: skipped, ${path.join(corpora, 'einvoices-dev')} is absent (the shared corpora sit beside the repository)`);
    return undefined;
  }
  const data: SetResult = { name: 'einvoices-dev as published, the data path (InvoicesUniversal model)', outcomes: [], seconds: 0, pages: 0 };
  const printed: SetResult = { name: 'einvoices-dev printed only, the printed path (InvoicesUniversal model)', outcomes: [], seconds: 0, pages: 0 };
  for (const invoice of invoices.filter((i) => !match || match.test(i.name)).slice(0, limit)) {
    for (const [set, file] of [[data, invoice.withData], [printed, invoice.printedOnly]] as const) {
      const { pageCount } = await pdfInfo(file);
      const run = await runModel(invoicesUniversalModel, TemplateType.InvoicesUniversal, file, 'pdf', Array.from({ length: pageCount }, (_, i) => i + 1));
      set.outcomes.push(...outcomesOf(invoice.name, EINVOICE_FIELDS, invoice.expected, run));
      set.seconds += run.seconds;
      set.pages += run.pages;
    }
  }
  return { data, printed };
}

/** The generated truth must be the stored one: a generator change shows in the diff of the expected file. */
async function checkExpected(specs: readonly InvoiceSpec[]): Promise<void> {
  const generated = specs.map(({ id, country, language, layout, delivery, expected }) => ({ id, country, language, layout, delivery, expected }));
  const text = `${JSON.stringify(generated, null, 1)}\n`;
  if (process.env.BENCH_WRITE_EXPECTED === '1' || !existsSync(expectedFile)) {
    await writeFile(expectedFile, text);
    console.log(`wrote ${path.relative(repository, expectedFile)}`);
    return;
  }
  const stored = await readFile(expectedFile, 'utf8');
  if (stored !== text) {
    throw new Error(`the invoice generator no longer produces ${path.relative(repository, expectedFile)}; rerun with BENCH_WRITE_EXPECTED=1 if the change is deliberate`);
  }
}

async function invoicesSet(): Promise<{ text: SetResult; scans: SetResult; groups: Map<string, string> } | undefined> {
  if (!chromiumAvailable()) {
    console.log('\nlabelled invoices: skipped, chromium is not installed (apt-get install chromium)');
    return undefined;
  }
  const specs = generateInvoices(INVOICE_SEED, invoiceCount);
  if (invoiceCount === 72) await checkExpected(specs);
  const dir = process.env.BENCH_KEEP ?? (await mkdtemp(path.join(os.tmpdir(), 'bench-accuracy-')));
  await mkdir(dir, { recursive: true });
  const browser = await launchBrowser();
  const text: SetResult = { name: 'labelled invoices, text PDFs (InvoicesUniversal model)', outcomes: [], seconds: 0, pages: 0 };
  const scans: SetResult = { name: 'labelled invoices, scans and photos (InvoicesUniversal model)', outcomes: [], seconds: 0, pages: 0 };
  const groups = new Map<string, string>();
  try {
    const named = specs.map((spec) => ({ spec, document: `${spec.id} ${spec.country}/${spec.language} ${spec.layout} ${spec.delivery}` }));
    for (const { spec, document } of named.filter((n) => !match || match.test(n.document)).slice(0, limit)) {
      const file = await renderInvoice(browser, spec, dir);
      const run = await runModel(invoicesUniversalModel, TemplateType.InvoicesUniversal, file.path, file.kind);
      const set = spec.delivery === 'text' || spec.delivery === 'letterhead' ? text : scans;
      groups.set(document, spec.delivery);
      set.outcomes.push(...outcomesOf(document, INVOICE_FIELDS, spec.expected, run));
      set.seconds += run.seconds;
      set.pages += run.pages;
    }
  } finally {
    await browser.close();
    if (!process.env.BENCH_KEEP) await rm(dir, { recursive: true, force: true });
  }
  return { text, scans, groups };
}

async function publicInvoicesSet(): Promise<{ data: SetResult; printed: SetResult; others: SetResult; groups: Map<string, string> } | undefined> {
  const documents = await loadPublicInvoices(publicInvoicesFolder);
  if (!documents) {
    console.log(`\npublic invoices: skipped, ${path.relative(repository, publicInvoicesFolder)} is absent (see its README for how the files reach a checkout)`);
    return undefined;
  }
  const data: SetResult = { name: 'public invoices, e-invoices as published (their data read)', outcomes: [], seconds: 0, pages: 0 };
  const printed: SetResult = { name: 'public invoices, e-invoices read from the printed page (data removed)', outcomes: [], seconds: 0, pages: 0 };
  const others: SetResult = { name: 'public invoices, text PDFs, scans and images', outcomes: [], seconds: 0, pages: 0 };
  const groups = new Map<string, string>();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-public-invoices-'));
  try {
    const named = documents.filter((doc) => !batches || batches.has(doc.batch)).map((doc) => ({ doc, document: `${doc.name} ${doc.country}/${doc.language} ${doc.kind}` }));
    for (const { doc, document } of named.filter((n) => !match || match.test(n.document)).slice(0, limit)) {
      groups.set(document, `${doc.kind} ${doc.country}`);
      const pages = Array.from({ length: Math.min(await pageCount(doc.file), PUBLIC_INVOICE_PAGES) }, (_, i) => i + 1);
      const read = async (set: SetResult, file: string) => {
        const run = await runModel(invoicesUniversalModel, TemplateType.InvoicesUniversal, file, fileKindOf(file), pages);
        set.outcomes.push(...outcomesOf(document, PUBLIC_INVOICE_FIELDS, doc.expected, run));
        set.seconds += run.seconds;
        set.pages += run.pages;
      };
      if (doc.kind !== 'e-invoice') {
        await read(others, doc.file);
        continue;
      }
      await read(data, doc.file);
      // The printed path: the e-invoice's data must not reach the model, it reads what a printer would show.
      await read(printed, await printedOnlyCopy(doc.file, dir));
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return { data, printed, others, groups };
}

async function main() {
  console.log(`accuracy benchmark (${os.cpus().length} cores)`);
  const results: SetResult[] = [];
  if (runs('receipts')) {
    const receipts = await receiptsSet();
    if (receipts) {
      report(receipts, RECEIPT_FIELDS);
      results.push(receipts);
    }
  }
  if (runs('einvoices')) {
    const sets = await eInvoiceSets();
    if (sets) {
      report(sets.data, EINVOICE_FIELDS);
      report(sets.printed, EINVOICE_FIELDS);
      results.push(sets.data, sets.printed);
    }
  }
  if (runs('invoices')) {
    const invoices = await invoicesSet();
    if (invoices) {
      report(invoices.text, INVOICE_FIELDS, invoices.groups);
      report(invoices.scans, INVOICE_FIELDS, invoices.groups);
      const all: SetResult = { name: 'labelled invoices, all', outcomes: [...invoices.text.outcomes, ...invoices.scans.outcomes], seconds: invoices.text.seconds + invoices.scans.seconds, pages: invoices.text.pages + invoices.scans.pages };
      report(all, INVOICE_FIELDS);
      results.push(invoices.text, invoices.scans);
    }
  }
  if (runs('public-invoices')) {
    const publicInvoices = await publicInvoicesSet();
    if (publicInvoices) {
      for (const set of [publicInvoices.data, publicInvoices.printed, publicInvoices.others]) {
        if (set.pages > 0) report(set, PUBLIC_INVOICE_FIELDS, publicInvoices.groups);
      }
      const { printed, others } = publicInvoices;
      const all: SetResult = { name: 'public invoices, all (e-invoices from their printed page)', outcomes: [...printed.outcomes, ...others.outcomes], seconds: printed.seconds + others.seconds, pages: printed.pages + others.pages };
      if (all.pages > 0) report(all, PUBLIC_INVOICE_FIELDS, publicInvoices.groups);
      results.push(publicInvoices.data, printed, others);
    }
  }
  if (process.env.BENCH_JSON) await writeFile(process.env.BENCH_JSON, JSON.stringify(results, null, 1));
}

await main();

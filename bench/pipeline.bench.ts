/**
 * npm run bench:pipeline: throughput of the document pipeline's expensive part, the detection
 * model, on text PDFs and on scanned pages, what anonymization pays for reading the images pasted
 * on text pages, and our OCR time per page against the raw tesseract CLI on the same images
 * (target: within 1.2x). Everything is generated here and runs locally.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { TemplateType } from '../src/domain/enums.js';
import { ocrImage } from '../src/engines/ocr.js';
import { anonymizationModel } from '../src/models/anonymization.js';
import { layoutModel } from '../src/models/layout.js';
import type { ModelInput } from '../src/models/model.js';

const run = promisify(execFile);
const TEXT_PAGES = 40;
const SCANNED_PAGES = 6;
const ANONYMIZED_PAGES = 6;
const LINES = [
  'Invoice number INV-2024-0042 issued on 15 January 2024 to Acme Corporation Lda.',
  'The quick brown fox jumps over the lazy dog while the accountant reviews totals.',
  'Payment is due within thirty days by bank transfer to the account stated below.',
  'Description Quantity Unit price Amount for consulting services rendered in March.',
];

/** Text pages; with `pasted`, each also shows that image (a scanned slip) under its text. */
async function textPdf(pages: number, pasted?: Buffer): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const image = pasted ? await doc.embedPng(pasted) : undefined;
  for (let p = 0; p < pages; p += 1) {
    const page = doc.addPage([595, 842]);
    for (let line = 0; line < 40; line += 1) page.drawText(LINES[line % LINES.length]!, { x: 40, y: 800 - line * 19, size: 10, font });
    if (image) page.drawImage(image, { x: 40, y: 20, width: 384, height: 24 });
  }
  return Buffer.from(await doc.save());
}

/** A 1600 x 100 px slip at 300 dpi with one line carrying personal data. */
function scannedSlip(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="100"><rect width="100%" height="100%" fill="white"/><text x="20" y="65" font-family="DejaVu Serif" font-size="46">Contact: maria.lopes@example.com</text></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** An A4 page at 300 dpi with 40 lines of text, as a scanner would deliver it (PNG). */
function scannedPage(seed: number): Promise<Buffer> {
  const rows = Array.from({ length: 40 }, (_, i) => `<text x="120" y="${200 + i * 68}" font-family="DejaVu Serif" font-size="38">${LINES[(i + seed) % LINES.length]}</text>`);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="2480" height="3508"><rect width="100%" height="100%" fill="white"/>${rows.join('')}</svg>`;
  return sharp(Buffer.from(svg)).rotate(0.7, { background: 'white' }).png().toBuffer();
}

async function imagePdf(pngs: Buffer[]): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const png of pngs) {
    const image = await doc.embedPng(png);
    doc.addPage([595, 842]).drawImage(image, { x: 0, y: 0, width: 595, height: 842 });
  }
  return Buffer.from(await doc.save());
}

function modelInput(sourcePath: string, pages: number, workDir: string): ModelInput {
  return {
    tenantId: 0,
    taskId: 0,
    templateType: TemplateType.Layout,
    sourcePath,
    kind: 'pdf',
    mimeType: 'application/pdf',
    pages: Array.from({ length: pages }, (_, i) => i + 1),
    useHigherQuality: false,
    templateFields: null,
    workDir,
    saveOutput: async () => '',
  };
}

async function timed<T>(work: () => Promise<T>): Promise<[T, number]> {
  const start = process.hrtime.bigint();
  const result = await work();
  return [result, Number(process.hrtime.bigint() - start) / 1e9];
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'bench-pipeline-'));
  try {
    const textPath = path.join(dir, 'text.pdf');
    await writeFile(textPath, await textPdf(TEXT_PAGES));
    const scans = await Promise.all(Array.from({ length: SCANNED_PAGES }, (_, i) => scannedPage(i)));
    const scanPaths = await Promise.all(scans.map(async (png, i) => {
      const file = path.join(dir, `scan-${i}.png`);
      await writeFile(file, png);
      return file;
    }));
    const scannedPath = path.join(dir, 'scanned.pdf');
    await writeFile(scannedPath, await imagePdf(scans));

    const [, textSeconds] = await timed(() => layoutModel(modelInput(textPath, TEXT_PAGES, dir)));
    const [, scannedSeconds] = await timed(() => layoutModel(modelInput(scannedPath, SCANNED_PAGES, dir)));
    const pastedPath = path.join(dir, 'pasted.pdf');
    await writeFile(pastedPath, await textPdf(ANONYMIZED_PAGES, await scannedSlip()));
    const [, anonymizedTextSeconds] = await timed(() => anonymizationModel(modelInput(textPath, ANONYMIZED_PAGES, dir)));
    const [, anonymizedPastedSeconds] = await timed(() => anonymizationModel(modelInput(pastedPath, ANONYMIZED_PAGES, dir)));

    // OCR alone, ours (spawned tesseract, TSV parsed) against the bare CLI, same images, one thread each.
    let ours = 0;
    let raw = 0;
    for (const file of scanPaths) {
      ours += (await timed(() => ocrImage(file, { dpi: 300 })))[1];
      raw += (await timed(() => run('tesseract', [file, 'stdout', '--dpi', '300', 'tsv'], { env: { ...process.env, OMP_THREAD_LIMIT: '1' }, maxBuffer: 64 * 1024 * 1024 })))[1];
    }
    const rows = [
      ['text PDF pages (layout model)', `${(TEXT_PAGES / textSeconds).toFixed(1)} pages/s`, `${((textSeconds / TEXT_PAGES) * 1000).toFixed(0)} ms/page`],
      ['scanned pages (render + OCR + layout)', `${(SCANNED_PAGES / scannedSeconds).toFixed(2)} pages/s`, `${((scannedSeconds / SCANNED_PAGES) * 1000).toFixed(0)} ms/page`],
      ['anonymization, text pages', `${(ANONYMIZED_PAGES / anonymizedTextSeconds).toFixed(2)} pages/s`, `${((anonymizedTextSeconds / ANONYMIZED_PAGES) * 1000).toFixed(0)} ms/page`],
      ['anonymization, text pages + a pasted scan', `${(ANONYMIZED_PAGES / anonymizedPastedSeconds).toFixed(2)} pages/s`, `${((anonymizedPastedSeconds / ANONYMIZED_PAGES) * 1000).toFixed(0)} ms/page`],
      ['OCR per page: ours', `${((ours / SCANNED_PAGES) * 1000).toFixed(0)} ms`, ''],
      ['OCR per page: raw tesseract CLI', `${((raw / SCANNED_PAGES) * 1000).toFixed(0)} ms`, ''],
      ['OCR ratio ours / raw (target <= 1.2)', (ours / raw).toFixed(2), ours / raw <= 1.2 ? 'met' : 'MISSED'],
    ];
    console.log(`pipeline benchmark (${os.cpus().length} cores, A4 pages, 40 lines each)`);
    for (const row of rows) console.log(`  ${row[0]!.padEnd(42)} ${row[1]!.padStart(14)}  ${row[2]}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();

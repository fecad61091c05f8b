import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TemplateType } from '../../src/domain/enums.js';
import type { ModelInput } from '../../src/models/model.js';
import { readPages, type Recogniser } from '../../src/models/page/page-reader.js';
import { amountValue, dayFirstDate, type ExpectedField } from './score.js';

/** The dev receipts' fields (SROIE keys) by the model's field names. */
export const RECEIPT_FIELDS = ['VendorName', 'InvoiceDate', 'VendorAddress', 'InvoiceTotal'] as const;

export interface LabelledReceipt {
  name: string;
  image: string;
  expected: Partial<Record<(typeof RECEIPT_FIELDS)[number], ExpectedField>>;
}

interface SroieKey {
  company?: string;
  date?: string;
  address?: string;
  total?: string;
}

/**
 * The dev receipts of the shared corpora (`img/NNN.jpg`, `key/NNN.json`), undefined when the
 * folder is absent: they are never copied into the repository.
 */
export async function loadDevReceipts(corpora: string): Promise<LabelledReceipt[] | undefined> {
  const folder = path.join(corpora, 'receipts-dev');
  if (!existsSync(path.join(folder, 'key'))) return undefined;
  const names = (await readdir(path.join(folder, 'key'))).filter((f) => f.endsWith('.json')).sort();
  return Promise.all(
    names.map(async (file) => {
      const name = file.replace(/\.json$/, '');
      const key = JSON.parse(await readFile(path.join(folder, 'key', file), 'utf8')) as SroieKey;
      const expected: LabelledReceipt['expected'] = {};
      if (key.company) expected.VendorName = { kind: 'text', printed: key.company, value: key.company };
      if (key.address) expected.VendorAddress = { kind: 'text', printed: key.address, value: key.address };
      const date = key.date && dayFirstDate(key.date);
      if (key.date && date) expected.InvoiceDate = { kind: 'date', printed: key.date, value: date };
      const total = key.total ? amountValue(key.total) : undefined;
      if (key.total && total !== undefined) expected.InvoiceTotal = { kind: 'amount', printed: key.total, value: total.toFixed(2) };
      return { name, image: path.join(folder, 'img', `${name}.jpg`), expected };
    }),
  );
}

/**
 * CPU seconds used so far by this process and the child processes it waited for (tesseract runs as
 * one): on a machine other work loads, CPU time compares two recognisers where wall time varies
 * with the load. Children are counted only where /proc tells them (Linux).
 */
export function cpuSeconds(): number {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    // Fields after the command's closing parenthesis: cutime and cstime are the 14th and 15th.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    children = (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    // No /proc: the process's own time alone.
  }
  return (user + system) / 1e6 + children;
}

/** Linux's USER_HZ, the unit of /proc's times (100 on every common platform). */
const CLOCK_TICKS = 100;

/**
 * Wall and CPU seconds the receipt model's page reader takes to OCR a receipt with a recogniser,
 * as the model reads it (a column layout, English): PP-OCR and tesseract timed on the same image
 * in the same run.
 */
export async function ocrSeconds(image: string, recogniser: Recogniser): Promise<{ wall: number; cpu: number }> {
  const workDir = await mkdtemp(path.join(os.tmpdir(), 'bench-accuracy-ocr-'));
  const input: ModelInput = {
    tenantId: 0,
    taskId: 0,
    templateType: TemplateType.Receipts,
    sourcePath: image,
    kind: 'image',
    mimeType: null,
    pages: [1],
    useHigherQuality: false,
    templateFields: null,
    workDir,
    saveOutput: async () => '',
  };
  try {
    const [started, cpuStarted] = [process.hrtime.bigint(), cpuSeconds()];
    for await (const page of readPages(input, { languages: ['en'], layout: 'column', recogniser })) await page.allWords();
    return { wall: Number(process.hrtime.bigint() - started) / 1e9, cpu: cpuSeconds() - cpuStarted };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

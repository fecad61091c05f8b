import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import sharp from 'sharp';
import { TemplateType } from '../../src/domain/enums.js';
import type { FileKind } from '../../src/engines/file-type.js';
import { pdfPageText, withPdf } from '../../src/engines/pdf.js';
import { z } from 'zod';
import { entity, type Entity, type KeyValue } from '../../src/domain/entities.js';
import type { DocumentChunkResult, DocumentResult, Model, ModelInput, ModelResult } from '../../src/models/model.js';
import type { ThreadModelInput } from '../../src/pipeline/engine-protocol.js';
import { escapeXml, seededRandom } from '../engines/fixtures.js';
import { addImagePage } from '../support/image-pdf.js';

/** Text placed on a page: x, y of the baseline's start from the top-left, in the page's units. */
export interface Placed {
  text: string;
  x: number;
  y: number;
  size?: number;
  font?: 'sans' | 'serif' | 'mono';
}

/** Rows of a page from y = 60, 16 apart; a row is one text at x = 50 or several texts at their x. */
export const rows = (...content: Array<string | Array<[string, number]>>): Placed[] =>
  content.flatMap((row, i) => (typeof row === 'string' ? [{ text: row, x: 50, y: 60 + 16 * i }] : row.map(([text, x]) => ({ text, x, y: 60 + 16 * i }))));

const A4 = { width: 595.28, height: 841.89 };

/**
 * A PDF with a text layer (pdf-lib standard fonts), one list of placed texts per page; `images`
 * are drawn too, `size` points wide (top-left at x, y) and `height` high (default: square).
 */
export async function textPdf(
  pages: ReadonlyArray<readonly Placed[]>,
  images: ReadonlyArray<{ page: number; png: Buffer; x: number; y: number; size: number; height?: number }> = [],
): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const fonts: Record<NonNullable<Placed['font']>, PDFFont> = {
    sans: await doc.embedFont(StandardFonts.Helvetica),
    serif: await doc.embedFont(StandardFonts.TimesRoman),
    mono: await doc.embedFont(StandardFonts.Courier),
  };
  for (const texts of pages) {
    const page = doc.addPage([A4.width, A4.height]);
    for (const { text, x, y, size = 11, font = 'sans' } of texts) page.drawText(text, { x, y: A4.height - y, size, font: fonts[font] });
  }
  for (const { page, png, x, y, size, height = size } of images) {
    const image = await doc.embedPng(png);
    doc.getPage(page - 1).drawImage(image, { x, y: A4.height - y - height, width: size, height });
  }
  return doc.save();
}

/** A PDF of page images only (a scanner's output): no text layer, so it must be OCRed. */
export async function imagePdf(pngs: readonly Buffer[], dpi = 300): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const png of pngs) await addImagePage(doc, png, dpi);
  return doc.save();
}

const FAMILIES = { sans: 'DejaVu Sans', serif: 'DejaVu Serif', mono: 'DejaVu Sans Mono' } as const;

/** A page as a 300 dpi scan would show it: texts in pixels on white, drawn by sharp from SVG. */
export function renderPage(texts: readonly Placed[], { width = 2480, height = 1754 } = {}): Promise<Buffer> {
  const body = texts
    .map(({ text, x, y, size = 46, font = 'serif' }) => `<text x="${x}" y="${y}" font-family="${FAMILIES[font]}" font-size="${size}">${escapeXml(text)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#000">${body}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/**
 * The page turned slightly and speckled like a cheap scan (the same noise every run): grey noise of
 * `noise` levels, and a `speckles` share of pixels flipped to pure black or white.
 */
export async function scannedLook(png: Buffer, { degrees = 1.5, noise = 100, speckles = 0, blur = 0.8, seed = 20240115 } = {}): Promise<Buffer> {
  const { data, info } = await sharp(png).rotate(degrees, { background: '#ffffff' }).greyscale().raw().toBuffer({ resolveWithObject: true });
  const random = seededRandom(seed);
  for (let i = 0; i < data.length; i++) {
    const speckle = speckles > 0 && random() < speckles ? (random() < 0.5 ? -255 : 255) : 0;
    data[i] = Math.min(255, Math.max(0, data[i]! + (random() - 0.5) * noise + speckle));
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).blur(blur).png().toBuffer();
}

/** What a model run is given, minus saveOutput (what crosses into an engine thread): a layout run by default. */
export function threadModelInput(sourcePath: string, kind: FileKind, workDir: string, overrides: Partial<ThreadModelInput> = {}): ThreadModelInput {
  return {
    tenantId: 1,
    taskId: 1,
    templateType: TemplateType.Layout,
    sourcePath,
    kind,
    mimeType: null,
    pages: [],
    useHigherQuality: false,
    templateFields: null,
    workDir,
    ...overrides,
  };
}

/** A scratch folder per model run, and a saveOutput that copies into its `outputs` folder. */
export async function modelInput(
  sourcePath: string,
  kind: FileKind,
  pages: number[],
  overrides: Partial<ModelInput> = {},
): Promise<ModelInput & { outputs: string }> {
  const workDir = await mkdtemp(path.join(path.dirname(sourcePath), 'run-'));
  const outputs = path.join(workDir, 'outputs');
  await mkdir(outputs);
  return {
    ...threadModelInput(sourcePath, kind, workDir, { pages }),
    saveOutput: async (name, localPath) => {
      await copyFile(localPath, path.join(outputs, name));
      return `outputs/${name}`;
    },
    outputs,
    ...overrides,
  };
}

export async function writeFixture(file: string, content: Uint8Array | Buffer): Promise<string> {
  await writeFile(file, content);
  return file;
}

type EntityChunk = Omit<DocumentChunkResult, 'entities'> & { entities: Entity[] };

/** A document result whose entities are checked against the export's Entity schema. */
export function documentResult(result: ModelResult): Omit<DocumentResult, 'chunks'> & { chunks: EntityChunk[] } {
  if (result.kind !== 'document') throw new Error(`expected a document result, got ${result.kind}`);
  return { ...result, chunks: result.chunks.map((chunk) => ({ ...chunk, entities: z.array(entity).parse(chunk.entities) })) };
}

export function entitiesOf(result: ModelResult, type?: string, page = 0): Entity[] {
  const entities = documentResult(result).chunks[page]?.entities ?? [];
  return type ? entities.filter((e) => e.type === type) : entities;
}

/** The entities `model` finds on the first page of `file` (a PDF or an image). */
export async function firstPageEntities(model: Model, file: string, kind: FileKind, overrides: Partial<ModelInput> = {}): Promise<Entity[]> {
  return entitiesOf(await model(await modelInput(file, kind, [1], overrides)));
}

/** The detected Field entities: category -> normalized value of their first keyValue. */
export function fields(entities: readonly Entity[]): Record<string, string | null> {
  return Object.fromEntries(entities.filter((e) => e.type === 'Field' && !e.notDetected).map((e) => [e.category, e.keyValues[0]!.contentNormalized]));
}

/** The first keyValue of the entity of this category (what the entity says). */
export function valueOf(entities: readonly Entity[], category: string): KeyValue | undefined {
  return entities.find((e) => e.category === category && !e.notDetected)?.keyValues[0];
}

/** Every word of a PDF's text layer, page after page (what a copy-and-paste or a crawler gets). */
export function pdfLayerText(file: string): Promise<string[]> {
  return withPdf(file, async (doc) => {
    const words: string[] = [];
    for (let page = 1; page <= doc.numPages; page++) words.push(...(await pdfPageText(doc, page)).words.map((w) => w.text));
    return words;
  });
}

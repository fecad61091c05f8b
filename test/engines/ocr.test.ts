import { writeFile } from 'node:fs/promises';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EngineMissingError, UnsupportedLanguageError } from '../../src/engines/errors.js';
import { ocrImage, tesseractLanguage, type OcrResult } from '../../src/engines/ocr.js';
import { pdfPageText, renderPdfPage, withPdf } from '../../src/engines/pdf.js';
import { scannedLook } from '../models/document-fixtures.js';
import { KNOWN_PARAGRAPH, KNOWN_WORDS, useScratchDir, textImage, wordAccuracy, timedOcr } from './fixtures.js';


const wordsOf = (result: OcrResult) => result.words.map((w) => w.text);

describe('ocr engine', () => {
  const scratch = useScratchDir();
  let clean: Buffer;

  beforeAll(async () => {
    clean = await textImage(KNOWN_PARAGRAPH);
  });

  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('reads clean serif text word for word, with boxes, layout numbers and confidences', async () => {
    const result = await timedOcr('ocr', 'clean page', clean);
    const accuracy = wordAccuracy(KNOWN_WORDS, wordsOf(result));
    console.log(`[ocr] clean word accuracy: ${(accuracy * 100).toFixed(1)}% of ${KNOWN_WORDS.length} words`);
    expect(accuracy).toBeGreaterThanOrEqual(0.98);

    const { width, height } = await sharp(clean).metadata();
    expect([result.width, result.height]).toEqual([width, height]);
    const lines = new Set(result.words.map((w) => `${w.block}.${w.paragraph}.${w.line}`));
    expect(lines.size).toBe(KNOWN_PARAGRAPH.length);
    const first = result.words[0]!;
    expect(first).toMatchObject({ text: 'The', block: 1, paragraph: 1, line: 1, word: 1 });
    // The first line's baseline is at y = 150 + 80 px with 50 px type, starting at x = 150 px.
    expect(first.box.left).toBeGreaterThanOrEqual(148);
    expect(first.box.left).toBeLessThan(160);
    expect(first.box.top + first.box.height).toBeGreaterThan(215);
    expect(first.box.top + first.box.height).toBeLessThanOrEqual(232);
    for (const word of result.words) {
      expect(word.text.trim()).toBe(word.text);
      expect(word.text).not.toBe('');
      expect(word.confidence).toBeGreaterThan(0.5);
      expect(word.confidence).toBeLessThanOrEqual(1);
    }
  });

  it('still reads most words of a slightly rotated, noisy scan', async () => {
    const noisy = await scannedLook(clean, { degrees: 2, noise: 140, speckles: 0.01, blur: 1 });
    const noisyPath = scratch.file('noisy.png');
    await writeFile(noisyPath, noisy);
    const result = await timedOcr('ocr', 'noisy page (from a file path)', noisyPath);
    const accuracy = wordAccuracy(KNOWN_WORDS, wordsOf(result));
    console.log(`[ocr] rotated 2° + noise word accuracy: ${(accuracy * 100).toFixed(1)}%`);
    expect(accuracy).toBeGreaterThanOrEqual(0.9);
  });

  it('uses the language model asked for', async () => {
    const sentence = 'Ação de formação: três lições práticas, emitida em São João da Madeira.';
    const image = await textImage([sentence]);
    expect(wordsOf(await ocrImage(image, { languages: ['pt-PT'] }))).toEqual(sentence.split(' '));
    // The English model has no Portuguese accents: the default must not be what read the sentence above.
    expect(wordsOf(await ocrImage(image))).not.toContain('São');
  });

  it('agrees with the text layer of a PDF page rendered at a known resolution', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.TimesRoman);
    doc.addPage([595.28, 841.89]).drawText('Total amount due 1537.50 EUR', { x: 72, y: 720, size: 16, font });
    const pdfPath = scratch.file('page.pdf');
    await writeFile(pdfPath, await doc.save());
    const dpi = 300;
    const png = await renderPdfPage(pdfPath, 1, dpi);
    const result = await timedOcr('ocr', 'rendered A4 PDF page', png, { dpi });
    const layer = await withPdf(pdfPath, (pdf) => pdfPageText(pdf, 1));

    expect(wordsOf(result)).toEqual(layer.words.map((w) => w.text));
    // The OCR boxes hug the ink; the text layer's run from the font's ascent to its descent and
    // estimate word starts inside the line, so they agree to a few points, and to an em inside it.
    const inPoints = (pixels: number) => (pixels * 72) / dpi;
    result.words.forEach((word, i) => {
      const estimate = layer.words[i]!.box;
      expect(Math.abs(inPoints(word.box.left) - estimate.left)).toBeLessThan(i === 0 ? 3 : 16);
      expect(Math.abs(inPoints(word.box.top + word.box.height) - (estimate.top + estimate.height))).toBeLessThan(5);
    });
    const lastOcr = result.words.at(-1)!.box;
    const lastLayer = layer.words.at(-1)!.box;
    expect(Math.abs(inPoints(lastOcr.left + lastOcr.width) - (lastLayer.left + lastLayer.width))).toBeLessThan(3);
  });

  it('maps language tags to the installed models and refuses others', () => {
    expect(['pt-PT', 'en-US', 'fr-FR', 'de-DE', 'es-ES', 'pt', 'por', 'EN'].map(tesseractLanguage)).toEqual([
      'por',
      'eng',
      'fra',
      'deu',
      'spa',
      'por',
      'por',
      'eng',
    ]);
    // Chinese in traditional characters unless the tag names the simplified script or a country writing it.
    expect(['ja-JP', 'zh-TW', 'zh-HK', 'zh', 'zh-CN', 'zh-Hans', 'chi_sim'].map(tesseractLanguage)).toEqual(['jpn', 'chi_tra', 'chi_tra', 'chi_tra', 'chi_sim', 'chi_sim', 'chi_sim']);
    expect(() => tesseractLanguage('ko-KR')).toThrow(UnsupportedLanguageError);
  });

  it('says clearly when the native tesseract is asked for but not installed', async () => {
    // By default a missing binary falls back to tesseract.js (ocr-wasm.test.ts); forced native, it is an error.
    vi.stubEnv('PATH', '/nonexistent');
    await expect(ocrImage(clean, { engine: 'native' })).rejects.toThrow(EngineMissingError);
    await expect(ocrImage(clean, { engine: 'native' })).rejects.toThrow('tesseract is not installed');
  });
});

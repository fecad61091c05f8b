import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineTimeoutError } from '../../src/engines/errors.js';
import { findOnPath } from '../../src/engines/find-on-path.js';
import { closeWasmOcr } from '../../src/engines/ocr-wasm.js';
import { chooseOcrEngine, ocrImage, type OcrResult } from '../../src/engines/ocr.js';
import { KNOWN_PARAGRAPH, KNOWN_WORDS, textImage, useScratchDir, wordAccuracy, timedOcr } from './fixtures.js';


const nativeOnPath = Boolean(await findOnPath('tesseract'));

const wordsOf = (result: OcrResult) => result.words.map((w) => w.text);

describe('tesseract.js fallback', () => {
  const scratch = useScratchDir();
  let clean: Buffer;

  beforeAll(async () => {
    clean = await textImage(KNOWN_PARAGRAPH);
  });

  afterAll(() => closeWasmOcr());

  it('is chosen when tesseract is not on PATH, and only then unless asked for', async () => {
    const notOnPath = () => findOnPath('tesseract', '/nonexistent');
    const found = async () => '/usr/bin/tesseract';
    expect(await chooseOcrEngine(undefined, notOnPath)).toBe('wasm');
    expect(await chooseOcrEngine(undefined, found)).toBe('native');
    expect(await chooseOcrEngine('wasm', found)).toBe('wasm');
    expect(await chooseOcrEngine('native', notOnPath)).toBe('native');
  });

  it('reads clean serif text with boxes inside the image, layout numbers and confidences', async () => {
    // The first page pays for starting the worker; the second shows the cost per page after it.
    await timedOcr('ocr-wasm', 'clean page, new worker', clean, { engine: 'wasm' });
    const result = await timedOcr('ocr-wasm', 'clean page, warm worker', clean, { engine: 'wasm' });
    const accuracy = wordAccuracy(KNOWN_WORDS, wordsOf(result));
    console.log(`[ocr-wasm] clean word accuracy: ${(accuracy * 100).toFixed(1)}% of ${KNOWN_WORDS.length} words`);
    expect(accuracy).toBeGreaterThanOrEqual(0.95);

    const { width, height } = await sharp(clean).metadata();
    expect([result.width, result.height]).toEqual([width, height]);
    expect(new Set(result.words.map((w) => `${w.block}.${w.paragraph}.${w.line}`)).size).toBe(KNOWN_PARAGRAPH.length);
    expect(result.words[0]).toMatchObject({ text: 'The', block: 1, paragraph: 1, line: 1, word: 1 });
    for (const { text, box, confidence } of result.words) {
      expect(text).not.toBe('');
      expect(text.trim()).toBe(text);
      expect(confidence).toBeGreaterThan(0.5);
      expect(confidence).toBeLessThanOrEqual(1);
      expect(box.width).toBeGreaterThan(0);
      expect(box.height).toBeGreaterThan(0);
      expect(box.left).toBeGreaterThanOrEqual(0);
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.left + box.width).toBeLessThanOrEqual(result.width);
      expect(box.top + box.height).toBeLessThanOrEqual(result.height);
    }
  });

  it.runIf(nativeOnPath)('finds the words and layout native tesseract finds', async () => {
    const native = await timedOcr('ocr-wasm', 'clean page, native tesseract', clean, { engine: 'native' });
    const wasm = await ocrImage(clean, { engine: 'wasm' });
    const layout = (result: OcrResult) => result.words.map((w) => `${w.block}.${w.paragraph}.${w.line}.${w.word}`);
    expect(layout(wasm)).toEqual(layout(native));
    expect(wordAccuracy(wordsOf(native), wordsOf(wasm))).toBeGreaterThanOrEqual(0.95);
  });

  it('uses the language models asked for, alone or together', async () => {
    const sentence = 'Ação de formação: três lições práticas, emitida em São João da Madeira.';
    const imagePath = scratch.file('portuguese.png');
    await writeFile(imagePath, await textImage([sentence]));
    const portuguese = wordsOf(await ocrImage(imagePath, { engine: 'wasm', languages: ['pt-PT'] }));
    expect(portuguese).toEqual(sentence.split(' '));
    // The English model has no Portuguese accents: the default must not be what read the sentence above.
    expect(wordsOf(await ocrImage(imagePath, { engine: 'wasm' }))).not.toContain('São');
    const both = wordsOf(await ocrImage(imagePath, { engine: 'wasm', languages: ['pt-PT', 'en'] }));
    expect(wordAccuracy(sentence.split(' '), both)).toBeGreaterThanOrEqual(0.9);
  });

  it('stops a recognition that takes too long, and recognizes again after it', async () => {
    await expect(ocrImage(clean, { engine: 'wasm', timeoutMs: 1 })).rejects.toThrow(EngineTimeoutError);
    expect(wordsOf(await ocrImage(clean, { engine: 'wasm' }))[0]).toBe('The');
  });
});

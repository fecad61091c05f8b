import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ocrImage } from '../../../src/engines/ocr.js';
import { renderPdfPage } from '../../../src/engines/pdf.js';
import type { Entity } from '../../../src/domain/entities.js';
import { anonymizationModel } from '../../../src/models/anonymization/anonymization.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { documentResult, firstPageEntities, modelInput, pdfLayerText, renderPage, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

const RECORD: Placed[] = [
  { text: 'Patient record', x: 50, y: 60, size: 16 },
  { text: 'Name: Anna Maria Eriksson', x: 50, y: 100 },
  { text: 'Date of birth: 12/08/1974', x: 50, y: 120 },
  { text: 'Email: anna.eriksson@example.com', x: 50, y: 140 },
  { text: 'Phone: +351 912 345 678', x: 50, y: 160 },
  { text: 'NIF: 501964843', x: 50, y: 180 },
  { text: 'IBAN: PT50 0002 0123 1234 5678 9015 4', x: 50, y: 200 },
  { text: 'Card: 4111 1111 1111 1111', x: 50, y: 220 },
  { text: 'Reference: 4111 1111 1111 1112', x: 50, y: 240 },
  { text: 'The patient attended the appointment on time.', x: 50, y: 270 },
];

function findings(entities: readonly Entity[]): Array<[string, string | null]> {
  return entities.filter((e) => e.type === 'PersonalData').map((e) => [e.category, e.keyValues[0]!.contentNormalized]);
}

/** What can still be read from a page image of the redacted output. */
async function ocrText(png: Buffer): Promise<string> {
  return (await ocrImage(png)).words.map((w) => w.text).join(' ');
}

function crop(png: Buffer, box: { left: number; top: number; width: number; height: number }): Promise<Buffer> {
  const whole = { left: Math.round(box.left), top: Math.round(box.top), width: Math.round(box.width), height: Math.round(box.height) };
  return sharp(png).extract(whole).greyscale().raw().toBuffer();
}

/** Mean grey level (0 black .. 255 white) of a region. */
async function meanLevel(png: Buffer, box: { left: number; top: number; width: number; height: number }): Promise<number> {
  const pixels = await crop(png, box);
  return pixels.reduce((sum, v) => sum + v, 0) / pixels.length;
}

/** Pixel size of the page images of a PDF (poppler's pdfimages). */
async function embeddedImageSizes(file: string): Promise<Array<[number, number]>> {
  const { stdout } = await promisify(execFile)('pdfimages', ['-list', file]);
  return stdout
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((row) => {
      const [, , , width, height] = row.trim().split(/\s+/);
      return [Number(width), Number(height)];
    });
}

describe('anonymization model', () => {
  const scratch = useScratchDir();
  const { file } = scratch;

  describe('on a PDF', () => {
    let result: ReturnType<typeof documentResult>;
    let redacted: string;

    beforeAll(async () => {
      const pdf = await writeFixture(file('record.pdf'), await textPdf([RECORD, [{ text: 'Contact: anna.eriksson@example.com', x: 50, y: 60 }]]));
      const input = await modelInput(pdf, 'pdf', [1, 2]);
      result = documentResult(await anonymizationModel(input));
      redacted = path.join(input.outputs, 'redacted.pdf');
    });

    it('finds the personal data, with geometry and normalised values', () => {
      expect(findings(result.chunks[0]!.entities)).toEqual([
        ['Name', 'Anna Maria Eriksson'],
        ['DateOfBirth', '1974-08-12'],
        ['Email', 'anna.eriksson@example.com'],
        ['Phone', '+351912345678'],
        ['TaxId', '501964843'],
        ['IBAN', 'PT50000201231234567890154'],
        ['CardNumber', '4111111111111111'],
      ]);
      expect(findings(result.chunks[1]!.entities)).toEqual([['Email', 'anna.eriksson@example.com']]);
      const email = result.chunks[0]!.entities.find((e) => e.category === 'Email')!.keyValues[0]!;
      expect(email.content).toBe('anna.eriksson@example.com');
      // The address, not its label: it starts after "Email: " at x = 50 pt.
      expect(email.boundingBox.left).toBeGreaterThan(75);
      expect(email.boundingBox.top).toBeGreaterThan(125);
      expect(email.boundingBox.bottom).toBeLessThan(145);
    });

    it('saves a redacted PDF whose pages carry no text at all', async () => {
      expect(result.redactedBlobKey).toBe('outputs/redacted.pdf');
      expect(await pdfLayerText(redacted)).toEqual([]);
      const bytes = await readFile(redacted);
      expect(bytes.includes('anna.eriksson')).toBe(false);
      expect(bytes.includes('Eriksson')).toBe(false);
    });

    it('paints over the personal data and leaves the rest legible', async () => {
      const page = await ocrText(await renderPdfPage(redacted, 1, 300));
      for (const secret of ['Eriksson', 'anna.eriksson', '912', '501964843', 'PT50', '1974', '4111 1111 1111 1111']) {
        expect(page).not.toContain(secret);
      }
      // Words beside a black box may read badly; the lines without one read as before.
      for (const kept of ['Patient', 'record', 'Date', 'birth:', 'Reference:', '1112', 'appointment']) expect(page).toContain(kept);
      expect(await ocrText(await renderPdfPage(redacted, 2, 300))).not.toContain('anna');
    });

    it('renders the pages at 150 dpi, or 300 dpi with useHigherQuality', async () => {
      // A4 is 595.28 x 841.89 pt: 1240.2 x 1753.9 px at 150 dpi, rounded up.
      expect(await embeddedImageSizes(redacted)).toEqual([
        [1241, 1754],
        [1241, 1754],
      ]);
      const input = await modelInput(file('record.pdf'), 'pdf', [1], { useHigherQuality: true });
      await anonymizationModel(input);
      expect(await embeddedImageSizes(path.join(input.outputs, 'redacted.pdf'))).toEqual([[2481, 3508]]);
    });
  });

  describe('on a PDF page with a text layer and a pasted scan', () => {
    // 1600 x 300 px at 300 dpi is 384 x 72 pt; placed under the letter's text.
    const SCAN_AT = { x: 50, y: 160, width: 384, height: 72 };

    it('reads the personal data inside the image too, and paints it over', async () => {
      const scan = await renderPage(
        [
          { text: 'Emergency contact: maria.lopes@example.com', x: 40, y: 110 },
          { text: 'Tel: 912 345 678', x: 40, y: 220 },
        ],
        { width: 1600, height: 300 },
      );
      const letter: Placed[] = [
        { text: 'Referral letter', x: 50, y: 60, size: 16 },
        { text: 'Name: Anna Maria Eriksson', x: 50, y: 100 },
        { text: 'The scan below was attached by the clinic.', x: 50, y: 130 },
      ];
      const pdf = await writeFixture(file('attached.pdf'), await textPdf([letter], [{ page: 1, png: scan, x: SCAN_AT.x, y: SCAN_AT.y, size: SCAN_AT.width, height: SCAN_AT.height }]));
      const input = await modelInput(pdf, 'pdf', [1]);
      const result = documentResult(await anonymizationModel(input));
      expect(findings(result.chunks[0]!.entities)).toEqual([
        ['Name', 'Anna Maria Eriksson'],
        ['Email', 'maria.lopes@example.com'],
        ['Phone', '912345678'],
      ]);
      // Found where the image shows it, in the page's points.
      const email = result.chunks[0]!.entities.find((e) => e.category === 'Email')!.keyValues[0]!.boundingBox;
      expect(email.left).toBeGreaterThan(SCAN_AT.x);
      expect(email.right).toBeLessThan(SCAN_AT.x + SCAN_AT.width);
      expect(email.top).toBeGreaterThan(SCAN_AT.y);
      expect(email.bottom).toBeLessThan(SCAN_AT.y + SCAN_AT.height / 2);

      const page = await ocrText(await renderPdfPage(path.join(input.outputs, 'redacted.pdf'), 1, 300));
      for (const secret of ['maria.lopes', 'example.com', '345', 'Eriksson']) expect(page).not.toContain(secret);
      for (const kept of ['Referral', 'Emergency', 'attached']) expect(page).toContain(kept);
    });

    it('reports text once when the image is a scan under its own text layer', async () => {
      // A searchable scan: the page image, and the same words in an invisible layer beneath it.
      const A4_AT_300_DPI = { width: 2480, height: 3508 };
      const scan = await renderPage([{ text: 'Please reply to maria.lopes@example.com by Friday.', x: 150, y: 400 }], A4_AT_300_DPI);
      const layer: Placed[] = [{ text: 'Please reply to maria.lopes@example.com by Friday.', x: 36, y: 96, size: 11, font: 'serif' }];
      const pdf = await writeFixture(file('searchable.pdf'), await textPdf([layer], [{ page: 1, png: scan, x: 0, y: 0, size: 595.28, height: 841.89 }]));
      const input = await modelInput(pdf, 'pdf', [1]);
      const result = documentResult(await anonymizationModel(input));
      expect(findings(result.chunks[0]!.entities)).toEqual([['Email', 'maria.lopes@example.com']]);
      expect(await ocrText(await renderPdfPage(path.join(input.outputs, 'redacted.pdf'), 1, 300))).not.toContain('maria.lopes');
    });
  });

  it('redacts a photographed image into a PNG of the same size', async () => {
    const photo = await renderPage(
      [
        { text: 'Visitor badge', x: 150, y: 200 },
        { text: 'Name: Joao Silva', x: 150, y: 300 },
        { text: 'Contact: joao.silva@example.pt', x: 150, y: 400 },
        { text: 'Tel: 912 345 678', x: 150, y: 500 },
      ],
      { width: 1600, height: 700 },
    );
    const image = await writeFixture(file('badge.png'), photo);
    const input = await modelInput(image, 'image', [1]);
    const result = documentResult(await anonymizationModel(input));
    expect(result.redactedBlobKey).toBe('outputs/redacted.png');
    expect(findings(result.chunks[0]!.entities)).toEqual([
      ['Name', 'Joao Silva'],
      ['Email', 'joao.silva@example.pt'],
      ['Phone', '912345678'],
    ]);
    const output = await readFile(path.join(input.outputs, 'redacted.png'));
    expect(await sharp(output).metadata()).toMatchObject({ format: 'png', width: 1600, height: 700 });
    const text = await ocrText(output);
    for (const secret of ['Joao', 'Silva', 'joao.silva', '345']) expect(text).not.toContain(secret);
    // Every finding is black in the output; the labels beside them are untouched pixels.
    for (const entity of result.chunks[0]!.entities) {
      const { left, top, width, height } = entity.keyValues[0]!.boundingBox;
      expect(await meanLevel(output, { left, top, width, height })).toBeLessThan(5);
    }
    const label = { left: 140, top: 350, width: 190, height: 65 };
    expect(await crop(output, label)).toEqual(await crop(photo, label));
    expect(await meanLevel(output, label)).toBeLessThan(240);
  });

  it('also finds personal data in an OCRed page', async () => {
    const scan = await renderPage([{ text: 'Please reply to maria.lopes@example.com by Friday.', x: 150, y: 200 }], { width: 2000, height: 400 });
    const image = await writeFixture(file('note.png'), scan);
    const entities = await firstPageEntities(anonymizationModel, image, 'image');
    const [email] = entities;
    expect(email).toMatchObject({ type: 'PersonalData', category: 'Email' });
    expect(email!.keyValues[0]!.content).toBe('maria.lopes@example.com');
    // In pixels: the address starts about 320 px from the left edge of its line at 150 px.
    expect(email!.keyValues[0]!.boundingBox.left).toBeGreaterThan(400);
  });
});

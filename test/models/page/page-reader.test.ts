import { degrees, PDFDocument, StandardFonts } from 'pdf-lib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as pdfEngine from '../../../src/engines/pdf.js';
import { ModelRejectedInputError } from '../../../src/models/model.js';
import { readPages } from '../../../src/models/page/page-reader.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { modelInput, writeFixture } from '../document-fixtures.js';

/** A portrait page, a landscape one and a portrait one turned a quarter (its /Rotate), each naming itself. */
async function pagesOfThreeShapes(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const shapes: Array<{ size: [number, number]; rotate?: number; name: string }> = [
    { size: [595.28, 841.89], name: 'Portrait' },
    { size: [841.89, 595.28], name: 'Landscape' },
    { size: [612, 792], rotate: 90, name: 'Turned' },
  ];
  for (const { size, rotate, name } of shapes) {
    const page = doc.addPage(size);
    if (rotate) page.setRotation(degrees(rotate));
    page.drawText(`${name} page`, { x: 60, y: size[1] - 100, size: 14, font });
  }
  return doc.save();
}

describe('the page reader on a PDF', () => {
  const { file } = useScratchDir();
  afterEach(() => vi.restoreAllMocks());

  it("opens the document once and reads each page's size from it: pdfInfo, which parses every page, ran in pre-processing already", async () => {
    const pdf = await writeFixture(file('shapes.pdf'), await pagesOfThreeShapes());
    const { pages: sizes } = await pdfEngine.pdfInfo(pdf);
    // Spies on the real functions (they still run): how often the page reader calls them.
    const infos = vi.spyOn(pdfEngine, 'pdfInfo');
    const opens = vi.spyOn(pdfEngine, 'openPdf');
    const read: Array<{ pageNumber: number; width: number; height: number; text: string }> = [];
    for await (const page of readPages(await modelInput(pdf, 'pdf', [3, 1, 2]), { languages: ['en'] })) {
      read.push({ pageNumber: page.pageNumber, width: page.width, height: page.height, text: page.words.map((w) => w.text).join(' ') });
    }
    expect(read).toEqual([
      { pageNumber: 3, ...sizes[2]!, text: 'Turned page' },
      { pageNumber: 1, ...sizes[0]!, text: 'Portrait page' },
      { pageNumber: 2, ...sizes[1]!, text: 'Landscape page' },
    ]);
    // The turned page is as wide as the letter page is high: the sizes are after the page's rotation.
    expect(sizes[2]).toEqual({ width: 792, height: 612 });
    expect(infos).not.toHaveBeenCalled();
    expect(opens).toHaveBeenCalledTimes(1);
  });

  it('rejects a page outside the document before reading any', async () => {
    const pdf = await writeFixture(file('shapes.pdf'), await pagesOfThreeShapes());
    const reading = async () => {
      for await (const _page of readPages(await modelInput(pdf, 'pdf', [1, 4]), { languages: ['en'] }));
    };
    await expect(reading()).rejects.toThrow(ModelRejectedInputError);
    await expect(reading()).rejects.toThrow("page 4 is outside the document's 3 pages");
  });
});

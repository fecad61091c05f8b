import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { escapeXml, useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, scannedLook, writeFixture } from '../document-fixtures.js';

/** A CJK font of Debian's fonts-wqy-zenhei (.ci/run installs it). */
const CJK_FONT = 'WenQuanYi Zen Hei';

/** Lines of a page image drawn in the CJK font, `size` pixels high, one under the other from the top. */
async function cjkImage(lines: ReadonlyArray<string | Array<[string, number]>>, { width = 1400, size = 40 } = {}): Promise<Buffer> {
  const texts = lines.flatMap((line, i) =>
    (typeof line === 'string' ? [[line, 80] as [string, number]] : line).map(([text, x]) => `<text x="${x}" y="${120 + i * size * 1.8}">${escapeXml(text)}</text>`),
  );
  const height = 200 + lines.length * size * 1.8;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#fff"/><g fill="#000" font-family="${CJK_FONT}" font-size="${size}">${texts.join('')}</g></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('a Taiwanese e-invoice proof photographed or scanned (real OCR)', () => {
  const scratch = useScratchDir();

  it('is read with the Chinese models its Latin reading calls for, and its fields come out', async () => {
    const png = await cjkImage([
      '好好吃餐飲股份有限公司',
      '電子發票證明聯',
      '113年05-06月',
      'AB-12345678',
      '2024-05-20 12:30:15',
      [['隨機碼 9527', 80], ['總計 1,050', 520]],
      [['賣方 12345675', 80], ['買方 04595257', 520]],
      [['銷售額合計', 80], ['1,000', 520]],
      [['營業稅', 80], ['50', 520]],
      [['總計', 80], ['NT$1,050', 520]],
    ]);
    const image = await writeFixture(scratch.file('tw-einvoice.png'), await scannedLook(png, { degrees: 0.8, noise: 40 }));
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({
      InvoiceId: 'AB-12345678',
      InvoiceDate: '2024-05-20',
      InvoiceTotal: '1050',
      TotalTax: '50',
      Currency: 'TWD',
      VendorTaxId: '12345675',
    });
    // The buyer's number is never the seller's.
    expect(found.VendorTaxId).not.toBe('04595257');
  }, 180_000);
});

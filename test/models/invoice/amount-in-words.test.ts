import { describe, expect, it } from 'vitest';
import { findAmountInWords } from '../../../src/models/invoice/amount-in-words.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture } from '../document-fixtures.js';

describe('an amount written out in words', () => {
  it('reads Indian and international wordings: lakhs and crores, paise and cents, "and 50/100"', () => {
    const cents = (text: string) => findAmountInWords(text)?.cents;
    expect(cents('INR Eleven Thousand Eight Hundred Only')).toBe(1_180_000);
    expect(cents('Rupees One Lakh Twenty Thousand and Fifty Paise Only')).toBe(12_000_050);
    expect(cents('Rupees Twenty-Five Thousand Three Hundred Forty and Paise Seventy Five Only')).toBe(2_534_075);
    expect(cents('One Crore Twenty Lakh Only')).toBe(1_200_000_000);
    expect(cents('US Dollars One Hundred Twenty and 50/100')).toBe(12_050);
    expect(cents('Ringgit Malaysia : One Hundred and Five Only')).toBe(10_500);
    expect(cents('Total in words: three hundred euros and twenty cents')).toBe(30_020);
    expect(findAmountInWords('INR Eleven Thousand Eight Hundred Only')).toMatchObject({ index: 4, length: 34 });
  });

  it('is no amount where a sentence uses a number word alone', () => {
    expect(findAmountInWords('one of our customers')).toBeUndefined();
    expect(findAmountInWords('Thank you for choosing us, have a nice day')).toBeUndefined();
    expect(findAmountInWords('Only one copy is valid')).toBeUndefined();
  });

  describe('on an invoice', () => {
    const scratch = useScratchDir();

    it('makes the figure it states the total, certain enough to skip, in the currency it names', async () => {
      // A tax summary's totals row ends in the tax (1,800.00); the words say the invoice's total.
      const lines = ['SHREE KRISHNA ENTERPRISES', 'Invoice No. SKE/2324/0917', 'Total 200 kg 11,800.00', 'Amount Chargeable (in words)', 'INR Eleven Thousand Eight Hundred Only', 'Taxable Value CGST SGST Total Tax', 'Total 10,000.00 900.00 900.00 1,800.00'];
      const pdf = await writeFixture(scratch.file('tally.pdf'), await textPdf([lines.map((text, i) => ({ text, x: 40, y: 40 + 16 * i }))]));
      const entities = await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
      expect(fields(entities)).toMatchObject({ InvoiceTotal: '11800.00', Currency: 'INR' });
      expect(entities.find((e) => e.category === 'InvoiceTotal')?.confidence).toBeGreaterThanOrEqual(0.9);
    });
  });
});

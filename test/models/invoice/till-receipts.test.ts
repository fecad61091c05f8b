import { describe, expect, it } from 'vitest';
import { chooseFields } from '../../../src/models/fields/field-choice.js';
import type { FieldCandidate } from '../../../src/models/fields/field-candidate.js';
import { dateOptionsFor } from '../../../src/models/fields/normalize.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { guessVendor } from '../../../src/models/fields/vendor.js';
import { isAmerican } from '../../../src/models/invoice/invoice.js';
import { fapiaoCandidates } from '../../../src/models/invoice/cn-fapiao-qr.js';
import { buildPageText, type PageText } from '../../../src/models/page/text/text-lines.js';
import { ocrCells, ocrReceipt } from '../receipt/ocr-receipt.js';

/**
 * Till receipts and card slips of shops in Finland, Germany and Switzerland read by the invoice
 * model, as OCR gives their lines (the lines are shaped after real receipts' print).
 */
const read = (text: PageText) => findPageCandidates(text, { dates: dateOptionsFor(undefined), portuguese: false, itemTables: [] });

function chosen(text: PageText) {
  const { candidates, taxIds } = read(text);
  const paged = [...candidates, ...taxIds].map((c) => ({ ...c, page: { pageNumber: 1, chunkNumber: 1 } }));
  return chooseFields(paged);
}

function values(candidates: readonly FieldCandidate[], category: string): string[] {
  return candidates.filter((c) => c.category === category).map((c) => c.contentNormalized);
}

describe('till receipts read by the invoice model', () => {
  it('reads the receipt numbers of German and Finnish tills: "Kassenbon Nr:", "Kuitti:"', () => {
    const german = ocrReceipt(['DELPHIN APOTHEKE', 'Detmolder Straße 8', '33102 Paderborn', 'Kassenbon', 'Kassenbon Nr: 1505289010', { text: 'Summe', right: 'EUR 19,90' }]);
    expect(chosen(german).get('InvoiceId')?.contentNormalized).toBe('1505289010');
    const finnish = ocrReceipt(['Bulevardi 6', '00120 Helsinki', 'LASKU', 'Kuitti: 1523 Kassa: 02 Poyta: 9', '07.12.19 22:54:36', { text: 'Yhteensa', right: '164,00' }]);
    expect(chosen(finnish).get('InvoiceId')?.contentNormalized).toBe('1523');
    // The merchant's copy of a card slip names no number.
    const slip = ocrReceipt(['OSTO', { text: 'EUR', right: '18,00' }, 'TAPAHT. OK', 'KAUPPIAAN KUITTI', '-Katkaise tasta-']);
    expect(chosen(slip).get('InvoiceId')).toBeUndefined();
  });

  it('reads an item count in brackets after "SUMME" as no amount: the total is the one further right', () => {
    const text = ocrReceipt([{ text: 'Bodenunterlage SELIT', right: '92,50 1' }, { text: 'SUMME [3]', right: 'EUR 152,00' }, { text: 'GEGEBEN ec-Karte', right: 'EUR 152,00' }]);
    expect(chosen(text).get('InvoiceTotal')?.contentNormalized).toBe('152.00');
  });

  it('takes what a card paid as the total when the total line lost its amount', () => {
    const text = ocrReceipt([{ text: 'APTITLIG Schnbr 45x2', right: '12,99' }, 'Summe', { text: 'Anzahl Artikel:', right: '13' }, { text: 'EC LASTSCHRIFT', right: '134,39 EUR' }]);
    expect(chosen(text).get('InvoiceTotal')?.contentNormalized).toBe('134.39');
    // A cash payment with its change says nothing of the kind by itself: the total line does.
    const cash = ocrReceipt([{ text: 'Summe', right: '18,40' }, { text: 'Bar', right: '20,00' }, { text: 'Rückgeld', right: '1,60' }]);
    expect(chosen(cash).get('InvoiceTotal')?.contentNormalized).toBe('18.40');
  });

  it('reads the amount of a Finnish card slip\'s purchase line ("OSTO" over "EUR 18,00")', () => {
    const text = ocrReceipt(['Era: 227', 'OSTO', { text: 'EUR', right: '18,00' }, 'TAPAHT. OK']);
    expect(chosen(text).get('InvoiceTotal')?.contentNormalized).toBe('18.00');
  });

  it('keeps the minus of a refund that OCR lost on one of its printings', () => {
    const text = ocrReceipt([
      { text: 'pe 20:50 - Joker', right: '-15,90' },
      { text: 'Yhteensa', right: '~15,90' },
      { text: 'Veroton', right: '-14,45' },
      { text: 'ALV 10 %', right: '-1,45' },
      { text: 'Yhteensa', right: '-15,90' },
      { text: 'Kateinen', right: '-15,90' },
      { text: 'Yhteensa', right: '-15,90' },
    ]);
    const fields = chosen(text);
    expect(fields.get('InvoiceTotal')?.contentNormalized).toBe('-15.90');
    expect(fields.get('SubTotal')?.contentNormalized).toBe('-14.45');
    expect(fields.get('TotalTax')?.contentNormalized).toBe('-1.45');
  });

  it('takes no rate\'s row of a tax table for the net when its sum row was not read', () => {
    const text = buildPageText([
      ...ocrCells(100, [[40, 'zu zahlen'], [740, '15,69']]),
      ...ocrCells(150, [[57, 'MWST%'], [277, 'MWST'], [479, 'Netto'], [756, 'Brutto']]),
      ...ocrCells(200, [[37, 'A 7 %'], [296, '0,62'], [516, '8,89'], [760, '9,51']]),
      ...ocrCells(250, [[36, 'B 19 %'], [296, '0,95'], [516, '5,19'], [760, '6,18']]),
    ]);
    expect(values(read(text).candidates, 'SubTotal')).not.toContain('8.89');
    // With its sum row the table gives the net.
    const summed = buildPageText([
      ...ocrCells(100, [[40, 'zu zahlen'], [740, '15,69']]),
      ...ocrCells(150, [[57, 'MWST%'], [277, 'MWST'], [479, 'Netto'], [756, 'Brutto']]),
      ...ocrCells(200, [[37, 'A 7 %'], [296, '0,66'], [516, '8,89'], [760, '9,55']]),
      ...ocrCells(250, [[36, 'B 19 %'], [296, '0,95'], [516, '5,19'], [760, '6,14']]),
      ...ocrCells(300, [[37, 'Summe'], [296, '1,61'], [516, '14,08'], [760, '15,69']]),
    ]);
    expect(chosen(summed).get('SubTotal')?.contentNormalized).toBe('14.08');
    // One rate, its totals row repeating it, and a register number further down the column: the net.
    const oneRate = buildPageText([
      ...ocrCells(100, [[338, 'Nettobetrag'], [410, 'MwSt-Betrag MwSt-%'], [525, 'Endbetrag']]),
      ...ocrCells(130, [[352, '1056,05'], [429, '200,65'], [472, '19,0'], [535, '1256,70']]),
      ...ocrCells(160, [[352, '1056,05'], [429, '200,65'], [477, 'EUR'], [535, '1256,70']]),
      ...ocrCells(190, [[44, 'MUSTERLIEFERANT GMBH']]),
      ...ocrCells(220, [[300, 'HRB Nr. 372876']]),
    ]);
    expect(chosen(oneRate).get('SubTotal')?.contentNormalized).toBe('1056.05');
  });

  it('reads "Netto inkl. MWST" as the total, with its tax, and a Swiss VAT id with its "MWST"', () => {
    const text = ocrReceipt(['MWST-Nr. CHE-112.203.184 MWST', { text: 'Brutto', right: "1'500.50" }, { text: 'Mehrwertsteuer 7.7%', right: '155.55' }, { text: 'Netto inkl. MWST', right: "1'756.05" }], 1);
    const fields = chosen(text);
    expect(fields.get('InvoiceTotal')?.contentNormalized).toBe('1756.05');
    expect(fields.get('VendorTaxId')?.contentNormalized).toBe('CHE112203184');
    expect(fields.get('VendorTaxId')?.value.text).toBe('CHE-112.203.184 MWST');
  });

  it('reads an Australian Business Number as the tax id, and a German tax office number under a VAT id\'s label as a tax number', () => {
    expect(chosen(ocrReceipt(['ABN: 16 112 221 123', 'Mecure Tower, Floors 1-10'])).get('VendorTaxId')?.contentNormalized).toBe('16112221123');
    const score = (text: PageText) => read(text).taxIds.find((c) => c.contentNormalized.includes('/'))?.score;
    const underVatLabel = score(ocrReceipt(['Tel.: 05251/56677', 'USt-IdNr.: 339/5264/3049', 'Kassenbon']));
    expect(underVatLabel).toBeDefined();
    expect(underVatLabel).toBeCloseTo(score(ocrReceipt(['Tel.: 05251/56677', 'Steuernummer: 339/5264/3049', 'Kassenbon']))!, 5);
  });
});

describe('numbers, charges and dates of receipts and invoices', () => {
  it('reads a number without the "N°" glued to it', () => {
    expect(chosen(ocrReceipt(['FACTURE N°F-20240000014', 'Date 07-11-2024'], 1)).get('InvoiceId')?.contentNormalized).toBe('F-20240000014');
  });

  it('takes a carrier\'s "Customs Tax" charge for no tax total', () => {
    const text = ocrReceipt([{ text: 'Ocean Freight Charge', right: '$1,500.00' }, { text: 'Customs Tax', right: '$100.00' }, { text: 'Customs Duties', right: '$75.00' }, { text: 'Invoice Amount:', right: '$5,270.00 AUD' }]);
    const fields = chosen(text);
    expect(fields.get('TotalTax')).toBeUndefined();
    expect(fields.get('InvoiceTotal')?.contentNormalized).toBe('5270.00');
  });

  it('dates a dollar receipt month first when its only address line is a US telephone number', () => {
    const receipt = 'getforky.com\n609-664-2022\nOrder# 2662642\nDate: 7/8/24, 11:42 AM\nLarge Latte $7.80';
    expect(isAmerican(receipt)).toBe(true);
    // A number grouped otherwise (an Australian one) says nothing of the kind.
    expect(isAmerican('Booking Phone: 617 4321 1234\nTotal $1,980.00')).toBe(false);
  });
});

describe('a Chinese VAT invoice (fapiao)', () => {
  const box = { left: 92, top: 26, width: 159, height: 156 };
  const code = (text: string, format = 'QRCode') => ({ text, format, box, points: [] });

  it('is read from its QR code: number, date, net amount, in yuan', () => {
    const found = fapiaoCandidates([code('01,10,042001700112,07007198,286.23,20180323,12636666022332927910,1992,')]);
    expect(Object.fromEntries(found.map((c) => [c.category, c.contentNormalized]))).toEqual({ InvoiceId: '07007198', InvoiceDate: '2018-03-23', SubTotal: '286.23', Currency: 'CNY' });
  });

  it('takes no other code for one', () => {
    expect(fapiaoCandidates([code('01,10,042001700112,07007198,286.23,20180323,', 'Code128')])).toEqual([]);
    expect(fapiaoCandidates([code('A:123456789*B:999999990*C:PT*D:FT*E:N*F:20240312')])).toEqual([]);
    expect(fapiaoCandidates([code('01,10,042001700112,07007198,286.23,20181323,')])).toEqual([]);
  });
});

describe('the seller of a receipt', () => {
  const vendor = (text: PageText) => guessVendor(text, read(text).hits, [], new Set())?.run.text;

  it('is the name in the footer, not the street above it joined to it', () => {
    const text = ocrReceipt([
      { text: 'Kateinen', right: '-15,90' },
      'Kiitos kaynnista, tervetuloa uudelleen!',
      'Tennispalatsi Helsinki',
      'Salomonkatu 15',
      'Finnkino Oy',
      'Y-tunnus 0647239-1',
    ]);
    expect(vendor(text)).toBe('Finnkino Oy');
  });

  it('is not the town of its address that a logo sets under its name, and is the name its web domain spells', () => {
    // OCR lost the "www" of the small print.
    const text = ocrReceipt(['DELPHIN APOTHEKE', 'APOTHEKE', 'PADERBORN', 'Alina Schunk', 'Detmolder StraBe 8', '33102 Paderborn', 'Tel.: 05251/56677', 'we .delphin-apo.de']);
    expect(vendor(text)).toBe('DELPHIN APOTHEKE');
    const town = ocrReceipt(['PADERBORN', 'Alina Schunk', 'Detmolder Straße 8', '33102 Paderborn', 'Tel.: 05251/56677']);
    expect(vendor(town)).not.toBe('PADERBORN');
  });

  it('is not a country line, nor a heading that opens with a word and a colon', () => {
    const country = ocrReceipt(['Australia', 'Mecure Tower, Floors 1-10', '10 Queen Street, King George Square', 'Brisbane City QLD 4000', 'Australia']);
    expect(vendor(country)).not.toBe('Australia');
    const notice = ocrReceipt(['Neu: Omina Trading Online Shop', 'Noch schneller, noch bequemer: Bestellen Sie online.', 'https://www.omina-trading.com']);
    expect(vendor(notice)).toBeUndefined();
  });
});

describe('a German VAT id whose label OCR spoiled', () => {
  const receipt = (vatLine: string) =>
    ocrReceipt(['Warburger Straße 130', '33100 Paderborn', { text: 'Apfelsaft', right: '1,19 B' }, { text: 'zu zahlen', right: '1,19' }, vatLine, 'Datum 07.04.20']);

  it('is the seller’s when its check digit holds ("us ST-ID- IR: DE811234565" for "USt-ID-Nr.")', () => {
    expect(chosen(receipt('us ST-ID- IR: DE811234565')).get('VendorTaxId')?.contentNormalized).toBe('DE811234565');
  });

  it('is no VAT id when its check digit fails: any "DE" before nine digits has the shape', () => {
    expect(chosen(receipt('us ST-ID- IR: DE811234566')).get('VendorTaxId')).toBeUndefined();
  });
});

describe('the only amount of a page whose labels OCR lost', () => {
  // An invoice image whose header band ("Invoice Number  Invoice Date  Due Date  Total Due") OCR could not read: the values under it remain.
  const page = (...values: string[]) =>
    buildPageText([...ocrCells(40, [[40, 'Fabrikam']]), ...ocrCells(80, [[40, '1020 Enterprise Way']]), ...ocrCells(110, [[40, 'Sunnyvale, CA 87659']]), ...ocrCells(200, values.map((v, i): [number, string] => [40 + 180 * i, v]))]);

  it('is the total, for a reviewer to confirm', () => {
    const total = chosen(page('10077351', '3/14/2021', '3/21/2021', '$12,480.50')).get('InvoiceTotal');
    expect(total?.contentNormalized).toBe('12480.50');
    expect(total!.confidence).toBeLessThanOrEqual(0.5);
  });

  it('is no total where the page prints another amount beside it', () => {
    expect(chosen(page('10077351', '$2,480.50', '$12,480.50')).get('InvoiceTotal')).toBeUndefined();
  });
});

/**
 * Tax lines that print the base beside the tax ("TVA 5,5% HT 10,10 TVA 0,56"): the tax is the
 * amount after the tax word, not the base; a bare tax word before an amount is the tax, not a
 * label of the tax number.
 */
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel, receiptsModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture } from '../document-fixtures.js';

describe('tax lines of a receipt', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (lines: readonly string[]) => {
    const pdf = await writeFixture(scratch.file(`tax-lines-${++count}.pdf`), await textPdf([lines.map((text, i) => ({ text, x: 40, y: 40 + 14 * i, font: 'mono' as const }))]));
    return fields(await firstPageEntities(receiptsModel, pdf, 'pdf'));
  };

  it('takes the tax after the tax word, not the base before it (French HT, Spanish base and cuota)', async () => {
    const french = await read(['CARREFOUR CITY', '12 RUE DE RIVOLI', '75004 PARIS', '', 'BAGUETTE TRADITION      1,20', 'CAMEMBERT               9,46', '', 'TOTAL TTC              10,66', 'ESPECES                20,00', 'RENDU MONNAIE           9,34', '', 'TVA 5,5%  HT 10,10  TVA 0,56', '15/03/2026 18:45']);
    expect(french).toMatchObject({ InvoiceTotal: '10.66', TotalTax: '0.56' });
    const spanish = await read(['MERCADONA, S.A.', 'C/ ALCALA 150', '28009 MADRID', 'NIF: A46103834', '', 'LECHE ENTERA           0,89', 'ACEITE OLIVA 1L       11,05', '', 'TOTAL (EUR)           11,94', 'EFECTIVO              20,00', 'CAMBIO                 8,06', '', 'IVA 10%  BASE 10,85  CUOTA 1,09', '17/03/2026 12:05']);
    expect(spanish).toMatchObject({ InvoiceTotal: '11.94', TotalTax: '1.09', VendorTaxId: 'A46103834' });
  });
});

describe('totals of an invoice before and after tax', () => {
  const scratch = useScratchDir();

  it('reads the German-Swiss "Total exkl. MWST" as the subtotal, not as the tax', async () => {
    const lines = ['Alpen Software AG', 'Bahnhofstrasse 10, 8001 Zurich', 'Rechnung Nr. 2025-118', 'Datum: 03.11.2025', '', "Total exkl. MWST CHF 1'000.00", 'MWST 8.1% CHF 81.00', "Total inkl. MWST CHF 1'081.00"];
    const pdf = await writeFixture(scratch.file('swiss.pdf'), await textPdf([lines.map((text, i) => ({ text, x: 40, y: 40 + 16 * i }))]));
    expect(fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'))).toMatchObject({ SubTotal: '1000.00', TotalTax: '81.00', InvoiceTotal: '1081.00' });
  });

  it('takes the tax, not the base it is reckoned on ("auf", "on"), on its line or in the cell beside it', async () => {
    const placed = (rows: ReadonlyArray<readonly [string, string?]>) =>
      rows.flatMap(([left, right], i) => [{ text: left, x: 40, y: 40 + 16 * i }, ...(right ? [{ text: right, x: 420, y: 40 + 16 * i }] : [])]);
    const read = async (name: string, rows: ReadonlyArray<readonly [string, string?]>) => {
      const pdf = await writeFixture(scratch.file(name), await textPdf([placed(rows)]));
      return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    };
    const swiss = await read('hotel.pdf', [['Hotel Bellevue Zurich AG'], ['Rechnung Nr. 558120'], ['Total CHF', "1'245.60"], ["inkl. MWST 3.8% auf 1'140.00", '41.70'], ['inkl. MWST 8.1% auf 105.60', '7.92']]);
    expect(swiss).toMatchObject({ InvoiceTotal: '1245.60', TotalTax: '49.62' });
    // "btw" qualifying the subtotal's label labels no VAT number.
    const dutch = await read('excl.pdf', [['Koffiebranderij Het Anker'], ['Factuur 2024100517'], ['Subtotaal (excl. btw)', '€ 45,87'], ['Btw 9%', '€ 4,13'], ['Totaal', '€ 50,00']]);
    expect(dutch).toMatchObject({ SubTotal: '45.87', TotalTax: '4.13', InvoiceTotal: '50.00' });
    const british = await read('on.pdf', [['Kestrel Plumbing Ltd'], ['Invoice: INV-10387'], ['VAT 20% on 640.00 128.00'], ['Invoice total 768.00']]);
    expect(british).toMatchObject({ TotalTax: '128.00', InvoiceTotal: '768.00' });
  });

  it('adds up the lines of different taxes when no subtotal checks them, and a tax line printed twice once', async () => {
    const read = async (name: string, lines: readonly string[]) => {
      const pdf = await writeFixture(scratch.file(name), await textPdf([lines.map((text, i) => ({ text, x: 40, y: 40 + 16 * i }))]));
      return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    };
    const gst = await read('gst.pdf', ['SHREE KRISHNA TRADERS', 'Invoice No.: SKT/23-24/0456', 'Basmati Rice 25kg 40 2,500.00 1,00,000.00', 'CGST @ 9% 9,000.00', 'SGST @ 9% 9,000.00', 'Total Rs. 1,18,000.00']);
    expect(gst).toMatchObject({ TotalTax: '18000.00', InvoiceTotal: '118000.00' });
    // "Net Amount" is what an Indian bill is paid: the sums tell it from a European subtotal.
    const bill = await read('net-amount.pdf', ['Hotel Saravana Bhavan', 'Bill No: 4587', 'Sub Total 630.00', 'CGST 2.5% 15.75', 'SGST 2.5% 15.75', 'Net Amount 661.50']);
    expect(bill).toMatchObject({ SubTotal: '630.00', TotalTax: '31.50', InvoiceTotal: '661.50' });
    const european = await read('net-amount-eu.pdf', ['Kestrel Plumbing Ltd', 'Invoice: INV-10387', 'Net amount 640.00', 'VAT 20% 128.00', 'Total 768.00']);
    expect(european).toMatchObject({ SubTotal: '640.00', TotalTax: '128.00', InvoiceTotal: '768.00' });
    const twice = await read('twice.pdf', ['Kestrel Plumbing Ltd', 'Invoice: INV-10387', 'VAT 20% 128.00', 'Replace boiler pump 640.00', 'VAT 20% 128.00', 'Invoice total 768.00']);
    expect(twice).toMatchObject({ TotalTax: '128.00', InvoiceTotal: '768.00' });
  });

  it('takes the tax from the cell after a cell holding its rate alone ("SGST | 9 % | 900.00")', async () => {
    const cells = (y: number, ...row: Array<[string, number]>) => row.map(([text, x]) => ({ text, x, y }));
    const pdf = await writeFixture(
      scratch.file('rate-cells.pdf'),
      await textPdf([
        [
          ...cells(40, ['SHREE KRISHNA ENTERPRISES', 40]),
          ...cells(56, ['Invoice No. SKE/2324/0917', 40]),
          ...cells(100, ['Cotton Yarn 40s', 60], ['200 kg', 260], ['50.00', 340], ['10,000.00', 480]),
          ...cells(116, ['CGST', 160], ['9 %', 340], ['900.00', 480]),
          ...cells(132, ['SGST', 160], ['9 %', 340], ['900.00', 480]),
          ...cells(148, ['Total', 160], ['200 kg', 260], ['Rs. 11,800.00', 470]),
        ],
      ]),
    );
    expect(fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'))).toMatchObject({ TotalTax: '1800.00', InvoiceTotal: '11800.00' });
  });
});

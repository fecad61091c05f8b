import { INVOICE_FIELDS } from '../../../src/models/fields/invoice-field-names.js';
import { describe, expect, it } from 'vitest';
import { receiptsModel } from '../../../src/models/invoice/invoice.js';
import { fixOcrConfusions, stripRegistration } from '../../../src/models/receipt/receipt-fields.js';
import { repairLegalForm } from '../../../src/models/fields/vendor.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, renderPage, scannedLook, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

/** A till receipt as thermal printers set it: centred header, items, totals with the amounts on the right. */
function receipt(): Placed[] {
  const centred = (text: string, y: number, size = 30): Placed => ({ text, x: Math.round(450 - (text.length * size * 0.6) / 2), y, size, font: 'mono' });
  const left = (text: string, y: number): Placed => ({ text, x: 80, y, size: 30, font: 'mono' });
  const right = (text: string, y: number): Placed => ({ text, x: 820 - text.length * 18, y, size: 30, font: 'mono' });
  return [
    centred('*** WELCOME ***', 90),
    centred('KEDAI MAJU JAYA SDN BHD', 160, 36),
    centred('(123456-X)', 210),
    centred('NO. 12, JALAN BESAR,', 255),
    centred('43000 KAJANG, SELANGOR', 300),
    centred('TEL: 03-8736 1234', 345),
    centred('TAX INVOICE', 410),
    left('INV: 10023', 470),
    right('12/03/2018 14:22', 470),
    left('2 x MILO', 540),
    right('7.00', 540),
    left('1 x ROTI BAKAR', 590),
    right('2.60', 590),
    left('TOTAL', 660),
    right('9.60', 660),
    left('CASH', 710),
    right('20.00', 710),
    left('CHANGE', 760),
    right('10.40', 760),
    centred('THANK YOU, PLEASE COME AGAIN', 850),
  ];
}

describe('receipts', () => {
  const scratch = useScratchDir();

  it('reads the shop and its address from the header, the date without a label and the amount paid, not the cash tendered', async () => {
    const image = await writeFixture(scratch.file('receipt.png'), await scannedLook(await renderPage(receipt(), { width: 900, height: 920 }), { degrees: 0.5, noise: 60 }));
    const entities = await firstPageEntities(receiptsModel, image, 'image');
    expect(fields(entities)).toMatchObject({
      VendorName: 'KEDAI MAJU JAYA SDN BHD',
      VendorAddress: 'NO. 12, JALAN BESAR, 43000 KAJANG, SELANGOR',
      InvoiceDate: '2018-03-12',
      InvoiceTotal: '9.60',
    });
    expect(entities.find((e) => e.category === 'VendorAddress')!.groupName).toBe('ReceiptFields');
  });

  it('takes the rounded net total as the amount paid, checked by the cash tendered and the change', async () => {
    const rows = [['Sub Total', '7.00'], ['GST 6%', '0.42'], ['Rounding Adj', '-0.02'], ['NET TOTAL', '7.40'], ['Cash', '10.00'], ['Change', '2.60']];
    const page: Placed[] = [
      { text: 'B & BEST RESTAURANT', x: 60, y: 40, size: 14 },
      { text: 'NO.12, JALAN SS4C/5, PETALING JAYA', x: 40, y: 60 },
      { text: 'Date: 10/02/2017', x: 40, y: 90 },
      ...rows.flatMap(([label, amount], i) => [
        { text: label!, x: 40, y: 130 + 16 * i },
        { text: amount!, x: 200, y: 130 + 16 * i },
      ]),
    ];
    const pdf = await writeFixture(scratch.file('rounded.pdf'), await textPdf([page]));
    const entities = await firstPageEntities(receiptsModel, pdf, 'pdf');
    expect(fields(entities)).toMatchObject({ InvoiceTotal: '7.40', InvoiceDate: '2017-02-10' });
    expect(entities.find((e) => e.category === 'InvoiceTotal')!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('reports the vendor address as not detected when the header has none', async () => {
    const page = receipt().filter((p) => !/JALAN|KAJANG/.test(p.text));
    const image = await writeFixture(scratch.file('no-address.png'), await renderPage(page, { width: 900, height: 920 }));
    const entities = await firstPageEntities(receiptsModel, image, 'image');
    expect(entities.find((e) => e.category === 'VendorAddress')).toMatchObject({ notDetected: true });
    // Every typed field has its entity, found or a slot to fill in (a till receipt prints no IBAN).
    const typed = new Set(entities.filter((e) => e.type === 'Field').map((e) => e.category));
    for (const field of INVOICE_FIELDS) expect(typed.has(field), field).toBe(true);
    expect(entities.find((e) => e.category === 'IBAN')).toMatchObject({ notDetected: true });
  });

  /**
   * A receipt as a text PDF (no OCR): the header lines given, then a date and an amount. A header
   * line given as pieces is set with its letters wide apart, the pieces two line heights apart, as
   * OCR cuts such a line.
   */
  async function headerReceipt(name: string, header: ReadonlyArray<string | readonly string[]>, body: ReadonlyArray<readonly [string, string]> = [['TOTAL', '9.60']]) {
    const widePieces = (pieces: readonly string[], y: number): Placed[] => {
      let x = 40;
      return pieces.map((text) => {
        const placed: Placed = { text, x, y, font: 'mono' };
        x += text.length * 11 * 0.6 + 2 * 11;
        return placed;
      });
    };
    const page: Placed[] = [
      ...header.flatMap((line, i) => (typeof line === 'string' ? [{ text: line, x: 40, y: 40 + 16 * i }] : widePieces(line, 40 + 16 * i))),
      { text: 'Date: 12/03/2018', x: 40, y: 60 + 16 * header.length },
      ...body.flatMap(([label, amount], i) => [
        { text: label, x: 40, y: 90 + 16 * (header.length + i) },
        { text: amount, x: 260, y: 90 + 16 * (header.length + i) },
      ]),
    ];
    const pdf = await writeFixture(scratch.file(`${name}.pdf`), await textPdf([page]));
    return fields(await firstPageEntities(receiptsModel, pdf, 'pdf'));
  }

  it('reads the address past the company and tax number lines, a date printed under the name and specks', async () => {
    expect(
      await headerReceipt('numbers-first', ['POPULAR BOOK CO. (M) SDN BHD', '12 Mar 2018 18:19', '.', '(Co. No. 113825-W)', '(GST Reg No. 001492992000)', 'No 8, Jalan 7/118B, Desa Tun Razak', '56000 Kuala Lumpur', 'Tel : 03-42601064']),
    ).toMatchObject({ VendorName: 'POPULAR BOOK CO. (M) SDN BHD', VendorAddress: 'No 8, Jalan 7/118B, Desa Tun Razak 56000 Kuala Lumpur' });
  });

  it('ends the address at a long number whose label is unreadable, and takes a name whose letters OCR read as digits', async () => {
    expect(await headerReceipt('long-number', ['99 SPEED N9R7 S/B (519537-X)', 'LOT P.T. 2811, JALAN ANGSA', '41150 KLANG, SELANGOR', '0S7 10. N0 : 000181747712'])).toMatchObject({
      VendorName: '99 SPEED N9R7 S/B',
      VendorAddress: 'LOT P.T. 2811, JALAN ANGSA 41150 KLANG, SELANGOR',
    });
  });

  it('takes a name whose legal form OCR spoiled over a branch name under its number, and the address past the branch name', async () => {
    expect(await headerReceipt('branch', ['SUPER SEVEN CASH & CARRY SDN 3HD', '(590150-A)', 'PASARAYA BORONG SUPER SEVEN', 'NO. 1 Jalan Euro 1', 'Sungai Buloh, 40150 Shah Alam', 'TEL : 03-78590861'])).toMatchObject({
      VendorName: 'SUPER SEVEN CASH & CARRY SDN BHD',
      VendorAddress: 'NO. 1 Jalan Euro 1 Sungai Buloh, 40150 Shah Alam',
    });
  });

  it('joins the second line of a name that sits right above the company number', async () => {
    expect(await headerReceipt('two-line-name', ['RESTAURANT JIAWEI', 'JIAWEI HOUSE', '002693074-K', '13, JLN TASIK UTAMA 8', '57000 KL'])).toMatchObject({
      VendorName: 'RESTAURANT JIAWEI JIAWEI HOUSE',
      VendorAddress: '13, JLN TASIK UTAMA 8 57000 KL',
    });
  });

  it('reads the address past a former name and a licence line under the name', async () => {
    expect(
      await headerReceipt('former-name', ['Kedai Maju Restaurants Sdn Bhd', '(65351-M)', 'formerly known as', 'Kedai Lama Restaurants Sdn Bhd', 'Licensee of Maju Brands', 'Level 6, Bangunan Maju, Uptown3', 'No.3, Jalan SS21/39,47400 Petaling Jaya', 'Selangor', '(GST ID No:000504664064)']),
    ).toMatchObject({ VendorName: 'Kedai Maju Restaurants Sdn Bhd', VendorAddress: 'Level 6, Bangunan Maju, Uptown3 No.3, Jalan SS21/39,47400 Petaling Jaya Selangor' });
  });

  it('reads the header under a line of specks that OCR read as figures', async () => {
    expect(await headerReceipt('figures-above', ['1 8 0201.6', 'SYARIKAT MAJU JAYA', '(81109-A)', 'NO 290, JALAN AIR PANAS,', '53200 KUALA LUMPUR.', 'TEL : 03-40210276'])).toMatchObject({
      VendorName: 'SYARIKAT MAJU JAYA',
      VendorAddress: 'NO 290, JALAN AIR PANAS, 53200 KUALA LUMPUR.',
    });
  });

  it('takes a street without a number above the postcode line as the address, not as the name', async () => {
    expect(await headerReceipt('street-without-number', ['RELAIS TOTAL LILLE NORD', 'AUTOROUTE PARIS LILLE', '59000 LILLE', 'Tel. : 03.20.95.66.66'])).toMatchObject({
      VendorName: 'RELAIS TOTAL LILLE NORD',
      VendorAddress: 'AUTOROUTE PARIS LILLE 59000 LILLE',
    });
  });

  it('reads a header line that OCR cut where its letters stand wide apart as one line, and a name over three lines with its bracket across two', async () => {
    expect(
      await headerReceipt('wide-pieces', ['AIK HUAT HARDWARE', 'ENTERPRISE (SETIA', ['ALAM) SDN', 'BHD'], '822737-X', 'NO. 17-G, JALAN SETIA INDAH', '(X) U13/X, SETIA ALAM,', 'SEKSYEN U13 40170 SHAH ALAM,', 'TEL: 012-6651783']),
    ).toMatchObject({
      VendorName: 'AIK HUAT HARDWARE ENTERPRISE (SETIA ALAM) SDN BHD',
      VendorAddress: 'NO. 17-G, JALAN SETIA INDAH (X) U13/X, SETIA ALAM, SEKSYEN U13 40170 SHAH ALAM,',
    });
  });

  it('starts the address right after the last line of a name that ends in its legal form alone', async () => {
    expect(await headerReceipt('legal-form-line', ['KEDAI MAJU JAYA', 'SDN BHD', 'NO. 1, JALAN BESAR,', '43000 KAJANG, SELANGOR', 'TEL: 03-8736 1234'])).toMatchObject({
      VendorName: 'KEDAI MAJU JAYA SDN BHD',
      VendorAddress: 'NO. 1, JALAN BESAR, 43000 KAJANG, SELANGOR',
    });
  });

  it('puts right the letters OCR misread in the name and the address, by the shapes and the words they are made of', async () => {
    const misread = receipt().map((p) =>
      p.text === 'KEDAI MAJU JAYA SDN BHD' ? { ...p, text: 'KEDAI HARDMARE 5/D' } : p.text === 'NO. 12, JALAN BESAR,' ? { ...p, text: 'NO. 9, JIn Maju, Perindustrlan' } : p.text === '43000 KAJANG, SELANGOR' ? { ...p, text: '43t 00 Kajang, Selangor' } : p,
    );
    const image = await writeFixture(scratch.file('misread.png'), await renderPage(misread, { width: 900, height: 920 }));
    expect(fields(await firstPageEntities(receiptsModel, image, 'image'))).toMatchObject({
      VendorName: 'KEDAI HARDWARE S/B',
      VendorAddress: 'NO. 9, Jln Maju, Perindustrian 43100 Kajang, Selangor',
    });
  });

  it('takes a text layer as printed: only a misspelt legal form is put right there', async () => {
    expect(await headerReceipt('text-layer-as-printed', ['KEDAI HARDMARE SDN 3HD', 'NO. 9, JALAN ANG5A, Perindustrlan', '43000 Kajang, Selangor'])).toMatchObject({
      VendorName: 'KEDAI HARDMARE SDN BHD',
      VendorAddress: 'NO. 9, JALAN ANG5A, Perindustrlan 43000 Kajang, Selangor',
    });
  });

  it('takes a street without a number above a Portuguese postcode as the address', async () => {
    expect(await headerReceipt('largo', ['PASTELARIA BELEM', 'LARGO DOS JERONIMOS', '1400-209 LISBOA', 'NIF 501234567'])).toMatchObject({ VendorName: 'PASTELARIA BELEM', VendorAddress: 'LARGO DOS JERONIMOS 1400-209 LISBOA' });
  });

  it('ends the address at the tax and company numbers of other countries', async () => {
    expect(await headerReceipt('siret', ['CARREFOUR CITY', '12 RUE DE LA PAIX', '75002 PARIS', 'SIRET 123 456 789 00012', 'N° TVA FR 12 345678901'])).toMatchObject({ VendorName: 'CARREFOUR CITY', VendorAddress: '12 RUE DE LA PAIX 75002 PARIS' });
    expect(await headerReceipt('steuernummer', ['BACKSTUBE MULLER GMBH', 'Hauptstr. 5', '10115 Berlin', 'Steuernummer 12/345/67890'])).toMatchObject({ VendorName: 'BACKSTUBE MULLER GMBH', VendorAddress: 'Hauptstr. 5 10115 Berlin' });
    expect(await headerReceipt('cif', ['CAFETERIA LA PLAZA S.L.', 'Calle Mayor 14', '28013 Madrid', 'C.I.F. B-8765 4321'])).toMatchObject({ VendorAddress: 'Calle Mayor 14 28013 Madrid' });
  });

  it('takes no title or greeting for the name, in the languages of the receipts', async () => {
    expect(await headerReceipt('bienvenue', ['CARREFOUR CITY', 'BIENVENUE', '12 RUE DE LA PAIX', '75002 PARIS'])).toMatchObject({ VendorName: 'CARREFOUR CITY', VendorAddress: '12 RUE DE LA PAIX 75002 PARIS' });
    expect(await headerReceipt('willkommen', ['BACKSTUBE MULLER', 'Herzlich Willkommen', 'Hauptstr. 5', '10115 Berlin'])).toMatchObject({ VendorName: 'BACKSTUBE MULLER', VendorAddress: 'Hauptstr. 5 10115 Berlin' });
  });

  it('finds the total right of a label that runs on beyond the vocabulary, and "total" with its l misread', async () => {
    expect(await headerReceipt('total-words', ['KEDAI MAJU SDN BHD'], [['Item Count', '3'], ['Total Amt Rounded', '15.90'], ['Cash', '20.00']])).toMatchObject({ InvoiceTotal: '15.90' });
    expect(await headerReceipt('total-misread', ['KEDAI MAJU SDN BHD'], [['Item Count', '3'], ['Totai Incl. of GST', '15.90'], ['Cash', '20.00']])).toMatchObject({ InvoiceTotal: '15.90' });
  });
});

describe('receipt totals among many amounts', () => {
  const scratch = useScratchDir();

  async function totals(name: string, body: ReadonlyArray<readonly [string, string]>) {
    const page: Placed[] = [
      { text: 'KEDAI MAJU SDN BHD', x: 40, y: 40 },
      { text: 'Date: 12/03/2018', x: 40, y: 60 },
      ...body.flatMap(([label, amount], i) => [
        { text: label, x: 40, y: 90 + 16 * i },
        { text: amount, x: 260, y: 90 + 16 * i },
      ]),
    ];
    const pdf = await writeFixture(scratch.file(`${name}.pdf`), await textPdf([page]));
    return (await firstPageEntities(receiptsModel, pdf, 'pdf')).find((e) => e.category === 'InvoiceTotal' && !e.notDetected);
  }

  it('takes the rounded total, checked by cash printed as a negative payment less the change', async () => {
    const total = await totals('rounded-negative-cash', [['Total RM Incl. of GST', '31.47'], ['Rounding Adj', '-0.02'], ['Total R', '31.45'], ['Cash', '-50.00'], ['CHANGE', '18.55']]);
    expect(total?.keyValues[0]!.contentNormalized).toBe('31.45');
    expect(total!.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('takes the rounded total after the one it rounds, whatever sign the rounding shows', async () => {
    const total = await totals('rounded-unsigned', [['Total Incl. GST', '7.16'], ['ROUNDING ADJUSTMENT', '0.01'], ['TOTAL ROUNDED', '7.15']]);
    expect(total?.keyValues[0]!.contentNormalized).toBe('7.15');
  });

  it('reads "Total ... Incl GST" with words or a rate in between, and the amount accepted as the cash tendered', async () => {
    expect((await totals('sales-incl', [['Sub-total', '127.37'], ['Total Sales Incl GST', '127.37'], ['Rounding Adj', '-0.02'], ['Total After Adj Incl GST', '127.35'], ['CASH', '150.00'], ['Change Amt', '22.65']]))?.keyValues[0]!.contentNormalized).toBe('127.35');
    expect((await totals('incl-rate', [['Item(s) : 3', ''], ['Total Incl. GST@6%', 'RM 69.20'], ['CASH', 'RM 69.20']]))?.keyValues[0]!.contentNormalized).toBe('69.20');
    expect((await totals('accepted', [['Total anount', '1.50 RM'], ['Accepted total', '2.00 RM'], ['Change', '0.50 RM']]))?.keyValues[0]!.contentNormalized).toBe('1.50');
  });

  it('reads a labelled date whose first separator OCR lost or read as a 7', async () => {
    for (const [name, printed, iso] of [['lost', 'DATE: 2504/2017', '2017-04-25'], ['seven', 'DATE:13707/2017', '2017-07-13']] as const) {
      const page: Placed[] = [
        { text: 'KEDAI MAJU SDN BHD', x: 40, y: 40 },
        { text: `RECEIPT #: CS00633800 ${printed}`, x: 40, y: 60 },
        { text: 'TOTAL', x: 40, y: 90 },
        { text: '9.60', x: 260, y: 90 },
      ];
      const pdf = await writeFixture(scratch.file(`date-${name}.pdf`), await textPdf([page]));
      expect(fields(await firstPageEntities(receiptsModel, pdf, 'pdf'))).toMatchObject({ InvoiceDate: iso });
    }
  });

  it('takes a total OCR parted from its cents ("RM8 .35"), as the cash tendered less the change says', async () => {
    const total = await totals('parted-cents', [['Sub-Total', 'RM7.90'], ['Grand Total', 'RM8 .35'], ['Cash', 'RM10.50'], ['Change', 'RM2.15']]);
    expect(total?.keyValues[0]!.contentNormalized).toBe('8.35');
  });

  it('takes a "Rounding" line of the whole amount as the rounded total, five-cent rounding telling it from the one it rounds', async () => {
    const total = await totals('rounding-line', [['Total Sales (Inclusive GST) RM', '177.22'], ['Rounding Adjustment RM', '-02'], ['Rounding RM', '177.20'], ['CHANGE RM', '0.00']]);
    expect(total?.keyValues[0]!.contentNormalized).toBe('177.20');
  });

  it('reads the total under a label that ends in its tax rate: "Total Sales (Incl. GST @6%)"', async () => {
    const page: Placed[] = [
      { text: 'KEDAI MAJU SDN BHD', x: 40, y: 40 },
      { text: 'Date: 12/03/2018', x: 40, y: 60 },
      { text: 'Total Sales (Incl. GST @6%)', x: 40, y: 90 },
      { text: 'RM367.10', x: 200, y: 106 },
      { text: 'Rounding Adjustment', x: 40, y: 122 },
      { text: 'RM0.00', x: 200, y: 138 },
    ];
    const pdf = await writeFixture(scratch.file('rate-rest.pdf'), await textPdf([page]));
    expect(fields(await firstPageEntities(receiptsModel, pdf, 'pdf')).InvoiceTotal).toBe('367.10');
  });

  it('is never sure of a total the cash tendered less the change contradicts', async () => {
    const total = await totals('contradicted', [['SUB-TOTAL', '92.50'], ['GST', '1.50'], ['TOTAL', '84.00'], ['CASH', '94.00'], ['CHANGE', '0.00']]);
    expect(total!.confidence).toBeLessThanOrEqual(0.6);
  });
});

describe('OCR clean-up of receipt names and addresses', () => {
  it('puts right the digits and letters OCR confuses, by their neighbours', () => {
    expect(fixOcrConfusions('L0T 1851-A, 4330O SERI KEMBANGAN')).toBe('LOT 1851-A, 43300 SERI KEMBANGAN');
    expect(fixOcrConfusions('Sungai Bu1oh, 403oo Shah Alam, Leve1 6')).toBe('Sungai Buloh, 40300 Shah Alam, Level 6');
    expect(fixOcrConfusions('LOT P.T. 2B11, 0TARA')).toBe('LOT P.T. 2811, OTARA');
    expect(fixOcrConfusions('POPULAR BOOK CO. (M) 糖 SDN BHD')).toBe('POPULAR BOOK CO. (M) SDN BHD');
    expect(fixOcrConfusions('AEON C0. (M) BHD')).toBe('AEON CO. (M) BHD');
    // Codes that mix letters and digits on purpose stay as they are.
    expect(fixOcrConfusions('JALAN SS21/39, U13/BG, PJU 1A/3, 7/118B, 10.50')).toBe('JALAN SS21/39, U13/BG, PJU 1A/3, 7/118B, 10.50');
    expect(fixOcrConfusions('NO 31G, JALAN SS4C/5, PJU6A, SEKSYEN U5, JALAN 5/D, 1A82A')).toBe('NO 31G, JALAN SS4C/5, PJU6A, SEKSYEN U5, JALAN 5/D, 1A82A');
  });

  it('reads a capital I after the first capital of a word of lower case, or ending one, as an l', () => {
    expect(fixOcrConfusions('No:G3,BIk G,JIn PJU 1A3, 2nd FIoor, Grand HoteI')).toBe('No:G3,Blk G,Jln PJU 1A3, 2nd Floor, Grand Hotel');
    // Words OCR joined ("PizzaItalia"), names and capitals keep it.
    expect(fixOcrConfusions('PizzaItalia McIntosh IKEA IJmuiden AI')).toBe('PizzaItalia McIntosh IKEA IJmuiden AI');
  });

  it('reads a 5 or an 8 inside a word of capitals as an S or a B', () => {
    expect(fixOcrConfusions('JALAN ANG5A, CHEE5E ROLL, 8ERKELEY')).toBe('JALAN ANGSA, CHEESE ROLL, 8ERKELEY');
  });

  it('puts a postcode back together whose 1 OCR read as a letter', () => {
    expect(fixOcrConfusions('Sek.U3, 40t 50 Shah Alam, 4l150 Klang')).toBe('Sek.U3, 40150 Shah Alam, 41150 Klang');
    // Not a postcode: too many digits, or no town after it.
    expect(fixOcrConfusions('Lot 123t 456 Shah Alam, Tel 40t 50')).toBe('Lot 123t 456 Shah Alam, Tel 40t 50');
  });

  it('reads an 8 between two unit numbers of the same shape as "&"', () => {
    expect(fixOcrConfusions('NO. 31G833G, JALAN SETIA INDAH')).toBe('NO. 31G&33G, JALAN SETIA INDAH');
    expect(fixOcrConfusions('NO. 31G833H, 2A83A')).toBe('NO. 31G833H, 2A83A');
  });

  it('reads a C before an unopened bracket as the bracket', () => {
    expect(fixOcrConfusions('ENTERPRISE CSETIA ALAM) SDN BHD')).toBe('ENTERPRISE (SETIA ALAM) SDN BHD');
    expect(fixOcrConfusions('AEON CO. CM) BHD')).toBe('AEON CO. (M) BHD');
    expect(fixOcrConfusions('KEDAI (CHINA) SDN BHD, CAFE COFFEE')).toBe('KEDAI (CHINA) SDN BHD, CAFE COFFEE');
  });

  it('puts right a legal form OCR spoiled: the H of BHD, the slash of S/B at the end of the name', () => {
    expect(repairLegalForm('AIK HUAT ALAM SDN HHU')).toBe('AIK HUAT ALAM SDN BHD');
    expect(repairLegalForm('Maju Sdn Hhd')).toBe('Maju Sdn Bhd');
    expect(repairLegalForm('99 SPEED MART 5/D')).toBe('99 SPEED MART S/B');
    expect(repairLegalForm('KEDAI S/8')).toBe('KEDAI S/B');
    expect(repairLegalForm('KEDAI 5/D MAJU')).toBe('KEDAI 5/D MAJU');
  });

  it('strips a trailing company number, also as OCR spoils it', () => {
    expect(stripRegistration('AEON CO. (M) BHD (126926-H)')).toBe('AEON CO. (M) BHD');
    expect(stripRegistration('GARDENIA BAKERIES (KL) SDN BHD (1B9386 X)')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
    expect(stripRegistration('SINNATHAMBY HOLDINGS SDN. BHD. (2 49336-T)')).toBe('SINNATHAMBY HOLDINGS SDN. BHD.');
    expect(stripRegistration('GARDENIA BAKERIES (KL) SDN BHD')).toBe('GARDENIA BAKERIES (KL) SDN BHD');
  });
});

import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


/** Fields as invoicing software of several countries prints them: what a generic reading got wrong. */
describe('invoice fields on common layouts', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`layout-${++count}.pdf`), await textPdf([page]));
    return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
  };

  it('Tally: the tax written out in words confirms no total, an e-way bill is no invoice number, "Destination" names no customer', async () => {
    const found = await read(
      rows(
        [['SHREE GANESH POLYMERS', 50], ['Invoice No.', 300], ['Dated', 440]],
        [['Plot No. B-47, MIDC Bhosari, Pune 411026', 50], ['SGP/1184/24-25', 300], ['14-Aug-24', 440]],
        [['GSTIN/UIN: 27ABKFS4821M1ZO', 50], ['Destination', 300]],
        [['Buyer (Bill to)', 50], ['Chakan', 300]],
        [['Deccan Agro Packaging Pvt. Ltd.', 50], ['E-Way Bill No. : 2218 4417 0935', 300]],
        [['Output CGST @ 9%', 150], ['20,156.85', 480]],
        [['Output SGST @ 9%', 150], ['20,156.85', 480]],
        [['Total', 150], ['Rs. 2,64,279.00', 470]],
        'Amount Chargeable (in words)',
        'INR Two Lakh Sixty Four Thousand Two Hundred Seventy Nine Only',
        [['Total', 50], ['2,23,965.00', 200], ['40,313.70', 470]],
        'Tax Amount (in words) : INR Forty Thousand Three Hundred Thirteen and Seventy paise Only',
      ),
    );
    expect(found).toMatchObject({ InvoiceId: 'SGP/1184/24-25', CustomerName: 'Deccan Agro Packaging Pvt. Ltd.', InvoiceTotal: '264279.00' });
  });

  it('a totals row read by its columns\' headers: the net column\'s sum is the subtotal, the tax column\'s the tax', async () => {
    // Tally's tax summary under the invoice: only its columns' headers say which sum is which.
    const tally = await read(
      rows(
        'SHREE GANESH POLYMERS',
        [['Invoice No.', 50], ['SGP/1184/24-25', 150]],
        [['Output CGST @ 9%', 150], ['20,156.85', 480]],
        [['Output SGST @ 9%', 150], ['20,156.85', 480]],
        [['Round Off', 150], ['0.30', 480]],
        [['Total', 150], ['Rs. 2,64,279.00', 460]],
        [['HSN/SAC', 50], ['Taxable', 150], ['Central Tax', 260], ['State Tax', 360], ['Total', 460]],
        [['Value', 150], ['Amount', 260], ['Amount', 360], ['Tax Amount', 460]],
        [['39012000', 50], ['1,40,625.00', 150], ['12,656.25', 260], ['12,656.25', 360], ['25,312.50', 460]],
        [['39201012', 50], ['83,340.00', 150], ['7,500.60', 260], ['7,500.60', 360], ['15,001.20', 460]],
        [['Total', 50], ['2,23,965.00', 150], ['20,156.85', 260], ['20,156.85', 360], ['40,313.70', 460]],
      ),
    );
    expect(tally).toMatchObject({ SubTotal: '223965.00', TotalTax: '40313.70', InvoiceTotal: '264279.00' });
    // A marketplace's item table taxed line by line: the tax column's sum, which the lines' taxes
    // add up to, is the tax; the total column's, the total.
    const marketplace = await read(
      rows(
        'Sold By: Vardhman Home Essentials',
        'Invoice Number : JPR1-2241',
        [['Description', 50], ['Net Amount', 250], ['Tax Type', 330], ['Tax Amount', 400], ['Total', 480]],
        [['Cotton Bedsheet', 50], ['2,030.36', 250], ['12% IGST', 330], ['243.64', 400], ['2,274.00', 480]],
        [['Shipping Charges', 50], ['35.71', 250], ['12% IGST', 330], ['4.29', 400], ['40.00', 480]],
        [['Microfibre Towel Set', 50], ['857.14', 250], ['5% IGST', 330], ['42.86', 400], ['900.00', 480]],
        [['TOTAL:', 50], ['290.79', 400], ['3,214.00', 480]],
      ),
    );
    expect(marketplace).toMatchObject({ TotalTax: '290.79', InvoiceTotal: '3214.00' });
  });

  it('a tax\'s name alone labels the amount beside it; "MERCHANDISE TOTAL" is the goods before freight and tax', async () => {
    const flemish = await read(rows('Boekhandel De Reiger bv', 'Factuurnummer 2024/0815', [['Totaal excl. btw', 300], ['3.442,01 EUR', 450]], [['Btw', 300], ['339,39 EUR', 450]], [['Te betalen', 300], ['3.781,40 EUR', 450]]));
    expect(flemish).toMatchObject({ SubTotal: '3442.01', TotalTax: '339.39', InvoiceTotal: '3781.40' });
    const distributor = await read(rows('Keystone Supply Co.', 'INVOICE NO. 0418832', [['MERCHANDISE TOTAL', 300], ['2,470.50', 450]], [['FREIGHT', 300], ['85.00', 450]], [['SALES TAX', 300], ['148.23', 450]], [['INVOICE TOTAL', 300], ['$2,703.73', 450]]));
    expect(distributor).toMatchObject({ SubTotal: '2470.50', TotalTax: '148.23', InvoiceTotal: '2703.73' });
  });

  it('the vendor\'s name wrapped beside its logo\'s large letters, without them', async () => {
    const found = await read([
      { text: 'Keystone Valley Janitorial & Paper', x: 90, y: 50, size: 13 },
      { text: 'KV', x: 40, y: 66, size: 26 },
      { text: 'Supply Co.', x: 90, y: 66, size: 13 },
      { text: '1450 Industrial Park Road · Lancaster, PA 17601', x: 90, y: 82 },
      { text: 'INVOICE NO. 0418832', x: 380, y: 120 },
      { text: 'INVOICE TOTAL $2,703.73', x: 380, y: 400 },
    ]);
    expect(found.VendorName).toBe('Keystone Valley Janitorial & Paper Supply Co.');
  });

  it('a ticket number in brackets in an item line is not the invoice\'s number under its title', async () => {
    const found = await read(
      rows(
        'Kaveri Cloudworks Private Limited',
        [['TAX INVOICE', 380]],
        [['# INV-000127', 380]],
        [['Invoice Date : 05 Dec 2024', 380]],
        [['Description', 50], ['Amount', 450]],
        [['Annual Maintenance Contract', 50], ['48,000.00', 450]],
        [['Includes fixing reports (Ticket #NFR-2241)', 50]],
        [['Total', 300], ['Rs.56,640.00', 450]],
      ),
    );
    expect(found.InvoiceId).toBe('INV-000127');
  });

  it('this invoice\'s total, not the balance due that a balance brought forward adds to it; a US vendor\'s EIN', async () => {
    const found = await read(
      rows(
        'Castellan & Reyes LLP',
        [['Invoice No.', 330], ['25-00412', 430]],
        [['Federal Tax I.D.', 330], ['59-3381046', 430]],
        [['Total Fees', 330], ['$4,486.50', 450]],
        [['Previous Balance', 50], ['$5,240.00', 200], ['TOTAL THIS INVOICE', 330], ['$4,623.35', 450]],
        [['Balance Forward', 50], ['$2,240.00', 200]],
        [['TOTAL BALANCE DUE', 50], ['$6,863.35', 200]],
      ),
    );
    expect(found).toMatchObject({ InvoiceTotal: '4623.35', VendorTaxId: '593381046' });
    expect((await read(rows('Keystone Supply Co.', 'Lancaster, PA 17601 · Fed. ID 23-2874519', 'INVOICE NO. 0418832', 'INVOICE TOTAL $2,703.73'))).VendorTaxId).toBe('232874519');
  });

  it('two letters are no customer\'s name: "Customer PA Sales Tax Account" is a state\'s account of the customer', async () => {
    const found = await read(
      rows('Keystone Supply Co.', 'SOLD TO', 'HOLLOWELL PROPERTY SERVICES, INC.', '88 E. King Street, Lancaster PA 17602', 'Customer PA Sales Tax Account: 81-447203', 'INVOICE TOTAL $2,703.73'),
    );
    expect(found.CustomerName).toBe('HOLLOWELL PROPERTY SERVICES, INC.');
  });

  it('German letter: the name under the salutation, "Schlussrechnung Nr.", the date of the payment sentence, the tax office number', async () => {
    const found = await read([
      { text: 'FLIESEN KALTENBACH', x: 50, y: 40, size: 16 },
      { text: 'Fliesen Kaltenbach e.K. · Gewerbestraße 7 · 79211 Denzlingen', x: 50, y: 90, size: 6 },
      ...[
        'Herrn',
        'Dr. Matthias Ohlendorf',
        'Kirchstraße 14',
        '79211 Denzlingen',
      ].map((text, i) => ({ text, x: 50, y: 104 + 13 * i })),
      { text: 'Denzlingen, 28.03.2024', x: 380, y: 170 },
      { text: 'Schlussrechnung Nr. 2024-0087', x: 50, y: 210, size: 12 },
      { text: 'Rechnungsbetrag 5.421,00 €', x: 300, y: 300 },
      { text: 'Zahlbar innerhalb von 14 Tagen bis zum 11.04.2024 ohne Abzug.', x: 50, y: 340 },
      { text: 'Inhaber: Jürgen Kaltenbach   IBAN: DE44 6809 2000 0412 8733 05   Steuernummer: 06481/23457', x: 50, y: 780, size: 7 },
    ]);
    expect(found).toMatchObject({ CustomerName: 'Dr. Matthias Ohlendorf', InvoiceId: '2024-0087', InvoiceDate: '2024-03-28', DueDate: '2024-04-11', VendorTaxId: '06481/23457' });
  });

  it('the due date of payment sentences in English and Dutch', async () => {
    const english = await read(rows('Tom Pryce Joinery', 'Invoice No: 0193', 'Date: 22nd March 2024', 'TOTAL DUE £2,420.88', 'Payment within 14 days please, i.e. by 5th April 2024.'));
    expect(english.DueDate).toBe('2024-04-05');
    const dutch = await read(rows('Boekhandel De Reiger bv', 'Factuurnummer 2024/0815', 'Factuurdatum 28/08/2024', 'Te betalen 3.781,40 EUR', 'Gelieve het bedrag te betalen vóór de vervaldag (27 september 2024) op rekening BE55 7370 4182 6544.'));
    expect(dutch.DueDate).toBe('2024-09-27');
  });

  it('the addressee\'s tax number ("Ihre UID") is the customer\'s; the vendor\'s stands alone in its letterhead, its label after it', async () => {
    const found = await read(
      rows(
        [['Vinothek Rebstock AG', 50], ['CHE-417.829.569 MWST', 380]],
        'Marktgasse 12, 8400 Winterthur',
        [['Rechnungsnummer', 50], ['RE-24-0311', 200]],
        [['Ihre UID', 50], ['CHE-109.348.622', 200]],
        [['Total inkl. MWST', 300], ['CHF 1\'300.65', 450]],
      ),
    );
    expect(found).toMatchObject({ VendorTaxId: 'CHE417829569', CustomerTaxId: 'CHE109348622' });
  });

  it('Italian e-invoice: the addressee\'s mailbox code and customer code are no names; "Cessionario / Committente" heads the customer', async () => {
    const found = await read(
      rows(
        [['Officina Grafica Brenta S.r.l.', 50], ['CESSIONARIO / COMMITTENTE', 330]],
        [['Via Venezia, 118 - 35131 Padova (PD)', 50], ['Trattoria Al Ponte S.n.c.', 330]],
        [['P.IVA 04382170282', 50], ['Codice destinatario: M5UXCR1', 330]],
        [['Numero', 50], ['Data', 150], ['Cod. cliente', 250], ['Vs. riferimento', 350]],
        [['127/2024', 50], ['18/11/2024', 150], ['C0219', 250], ['Ordine del 04/11/2024', 350]],
        [['Totale documento', 300], ['€ 1.423,74', 450]],
      ),
    );
    expect(found.CustomerName).toBe('Trattoria Al Ponte S.n.c.');
  });

  it('Flemish: "Facturatieadres" heads the customer, "Leveradres" only where the goods went', async () => {
    const found = await read(
      rows(
        'Boekhandel De Reiger bv',
        [['LEVERADRES', 50], ['FACTURATIEADRES', 330]],
        [['VSO Campus Ter Leie', 50], ['Scholengroep Ter Leie vzw', 330]],
        [['Leiedreef 21', 50], ['Kasteelstraat 9', 330]],
        'Factuurnummer 2024/0815',
        [['Te betalen', 300], ['3.781,40 EUR', 450]],
      ),
    );
    expect(found.CustomerName).toBe('Scholengroep Ter Leie vzw');
  });

  it('a remittance slip: "From:" is who pays, "Pay to:" the vendor', async () => {
    const found = await read(
      rows(
        'INVOICE TO:',
        'Mrs J. Whitfield',
        '22 Breary Lane East, Leeds LS16 9EU',
        'Invoice No: 0193',
        'TOTAL DUE £2,420.88',
        'REMITTANCE ADVICE',
        [['From:', 50], ['Mrs J. Whitfield', 120], ['Pay to:', 330], ['Tom Pryce Joinery', 390]],
      ),
    );
    expect(found).toMatchObject({ VendorName: 'Tom Pryce Joinery', CustomerName: 'Mrs J. Whitfield' });
  });

  it('a credit note: its own number and date, not those of the invoice it corrects; its total, negative', async () => {
    const found = await read(
      rows(
        'Brenner & Vogt Büroeinrichtung GmbH',
        [['Gutschrift-Nr.', 330], ['GS-24-00031', 430]],
        [['Datum', 330], ['08.03.2024', 430]],
        'Gutschrift',
        'zur Rechnung Nr. RE-24-00417 vom 12.02.2024 · Ihre Bestellung vom 29.01.2024',
        [['Nettobetrag', 300], ['-1.048,00 €', 450]],
        [['zzgl. 19 % Umsatzsteuer', 300], ['-199,12 €', 450]],
        [['Gutschriftsbetrag', 300], ['-1.247,12 €', 450]],
      ),
    );
    expect(found).toMatchObject({ InvoiceId: 'GS-24-00031', InvoiceDate: '2024-03-08', SubTotal: '-1048.00', TotalTax: '-199.12', InvoiceTotal: '-1247.12' });
  });

  it('titles and header cells set letter-spaced, as text layers cut them: "FA C T U R E N°", "Nº FACT URA"', async () => {
    const french = await read(rows('Hôtel Le Clos des Tilleuls', 'FA C T U R E           N° F2403-01873 · Dijon, le 18/03/2024', [['Total TTC', 300], ['940,12 €', 450]]));
    expect(french.InvoiceId).toBe('F2403-01873');
    const spanish = await read(rows('Nubetinta Estudio Digital, S.L.', [['Nº FACT URA', 50], ['F E CHA', 180], ['VE NCI MI E NT O', 300]], [['NT-2024-0058', 50], ['15/03/2024', 180], ['14/04/2024', 300]], [['TOTAL FACTURA', 300], ['5.898,75 €', 450]]));
    expect(spanish).toMatchObject({ InvoiceId: 'NT-2024-0058', InvoiceDate: '2024-03-15', DueDate: '2024-04-14' });
  });

  it('a sentence\'s full stop after a party\'s word ends the sentence; a legal line\'s share capital is no part of the name', async () => {
    const marketplace = await read(
      rows('shopvale.de', 'Invoice number INV-DE-2024-0018391', 'Sold by', 'Kraxner Haushaltswaren GmbH', 'Total payable €137.79', 'The marketplace collects payment on behalf of the seller. Statutory warranty rights apply.'),
    );
    expect(marketplace.VendorName).toBe('Kraxner Haushaltswaren GmbH');
    const hotel = await read(rows('FACTURE N° F2403-01873', [['Total TTC', 300], ['940,12 €', 450]], ...Array.from({ length: 30 }, () => ''), 'SAS Clos des Tilleuls Hôtellerie au capital de 120 000 € · RCS Dijon 814 275 301 · SIRET 81427530100012'));
    expect(hotel.VendorName).toBe('SAS Clos des Tilleuls Hôtellerie');
  });

  it('a form\'s rows: the line under a label with its value beside it is the next label; the party billed over "Client"', async () => {
    const found = await read(
      rows(
        'HÔTEL LE CLOS DES TILLEULS',
        [['Client', 50], ['M. Laurent Chevallier', 130], ['FACTURÉ À', 330]],
        [['Chambre', 50], ['214 – Supérieure double', 130], ['Atelier Morvan SARL', 330]],
        [['Arrivée', 50], ['14/03/2024', 130], ['8 avenue Jean Jaurès, 69007 Lyon', 330]],
        'FACTURE N° F2403-01873',
        [['Total TTC', 300], ['940,12 €', 450]],
      ),
    );
    expect(found.CustomerName).toBe('Atelier Morvan SARL');
    // Heads of blocks side by side are no values of each other.
    const blocks = await read(rows('Invoice number INV-0018391', [['Billing address', 50], ['Delivery address', 250]], [['Jana Möller', 50], ['Jana Möller', 250]], [['Lindenstraße 8', 50], ['Packstation 114', 250]], 'Total payable €137.79'));
    expect(blocks.CustomerName).toBe('Jana Möller');
    const medical = await read(rows('Northgate Family Medicine, P.C.', 'Columbus, OH 43214', [['RESPONSIBLE PARTY / PATIENT', 50], ['PROVIDER & INSURANCE', 300]], [['Marcus T. Whitfield', 50], ['Rendering: Rachel A. Simmons, MD', 300]], 'DOB: 07/19/1981', [['STATEMENT DATE', 300], ['03/12/2024', 430]], [['Total Charges', 300], ['$602.50', 430]], [['Patient Balance Due', 300], ['$60.78', 430]]));
    expect(medical).toMatchObject({ CustomerName: 'Marcus T. Whitfield', InvoiceDate: '2024-03-12', InvoiceTotal: '602.50' });
  });

  it('a customer\'s account number is no name; a number a line break cut ("factuurnummer F2024-") loses to the whole one', async () => {
    const found = await read(rows('Hudson Ridge Office Supply Co.', 'SOLD TO', 'Castellano & Price LLP', '88 Pine Street, New York, NY 10005', 'Invoice No. ........ 20731', 'Customer Acct. ........ CP-0458', 'Total ........ $1,306.50'));
    expect(found.CustomerName).toBe('Castellano & Price LLP');
    const dutch = await read(rows('Van Dijk Installatietechniek B.V.', 'FACTUURNUMMER', 'F2024-0356', [['Totaal incl. btw', 300], ['€ 3.375,11', 450]], 'Betaling o.v.v. factuurnummer F2024-', '0356 op NL18 RABO 0318 4722 65.'));
    expect(dutch.InvoiceId).toBe('F2024-0356');
  });

  it('the window under a sender line with commas, the tax number in its block the customer\'s; a name wrapped after "&"', async () => {
    const austrian = await read([
      { text: 'Elektro Pichler GmbH', x: 50, y: 40, size: 14 },
      { text: 'Hauptplatz 9, 8600 Bruck an der Mur · UID-Nr. ATU63812743', x: 50, y: 56 },
      { text: 'Elektro Pichler GmbH, Hauptplatz 9, 8600 Bruck an der Mur', x: 50, y: 110, size: 7 },
      ...['Hotel Steirerhof Betriebs GmbH', 'z. H. Frau Mag. Sabine Lechner', 'Wiener Straße 31', '8605 Kapfenberg', 'UID-Nr. ATU57204199'].map((text, i) => ({ text, x: 50, y: 124 + 13 * i })),
      { text: 'Rechnungsnummer 2024/0312', x: 330, y: 124 },
      { text: 'Gesamtbetrag € 4.812,00', x: 330, y: 400 },
    ]);
    expect(austrian).toMatchObject({ CustomerName: 'Hotel Steirerhof Betriebs GmbH', VendorTaxId: 'ATU63812743', CustomerTaxId: 'ATU57204199' });
    const memo = await read([
      { text: 'CASH MEMO', x: 250, y: 40 },
      { text: 'Shree Ganesh Hardware &', x: 200, y: 70, size: 16 },
      { text: 'Paints', x: 260, y: 88, size: 16 },
      { text: 'Shop No. 14, Station Road, Nashik - 422 101', x: 180, y: 106 },
      { text: 'Bill No. 1487', x: 50, y: 140 },
      { text: 'Total 7,560.00', x: 330, y: 400 },
    ]);
    expect(memo.VendorName).toBe('Shree Ganesh Hardware & Paints');
  });

  it('a statement\'s own charges, not the balance it carries; a subtotal\'s label with words before "excl. VAT"', async () => {
    const found = await read(
      rows(
        'Kestrel Mobile Communications Ltd',
        [['Previous balance', 50], ['£54.12', 450]],
        [['Balance brought forward', 50], ['£4.12', 450]],
        [['Total amount due', 50], ['£60.42', 450]],
        [['Total charges excl. VAT', 300], ['£46.92', 450]],
        [['VAT at 20%', 300], ['£9.38', 450]],
        [['Total new charges', 300], ['£56.30', 450]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '46.92', TotalTax: '9.38', InvoiceTotal: '56.30' });
  });

  it('reverse charge: the tax is the 0.00 "BTW verlegd" states; of two of the vendor\'s accounts, neither is vouched for', async () => {
    const entities = await firstPageEntities(
      invoicesUniversalModel,
      await writeFixture(
        scratch.file('reverse-charge.pdf'),
        await textPdf([
          rows(
            'Timmerbedrijf Brouwer & Kemper B.V.',
            'Factuurnummer 24-0312',
            [['Subtotaal excl. BTW', 300], ['€ 16.720,60', 450]],
            [['BTW verlegd (0%)', 300], ['€ 0,00', 450]],
            [['Totaal te betalen', 300], ['€ 16.720,60', 450]],
            'G-rekening NL78 INGB 0990 3812 26',
            'IBAN NL53 RABO 0347 2186 52 · BIC RABONL2U',
          ),
        ]),
      ),
      'pdf',
    );
    expect(fields(entities)).toMatchObject({ SubTotal: '16720.60', TotalTax: '0.00', InvoiceTotal: '16720.60' });
    const iban = entities.find((e) => e.category === 'IBAN' && !e.notDetected);
    expect(iban?.confidence).toBeLessThan(0.9);
  });

  it('a tax number ends at its digits, not in the next word ("P.IVA 04382170282 - C.F. ...")', async () => {
    expect((await read(rows('Officina Grafica Brenta S.r.l.', 'P.IVA 04382170282 - C.F. 04382170282', 'Fattura n. 127/2024', 'Totale documento € 1.423,74'))).VendorTaxId).toBe('04382170282');
  });

  it('a bare "$" is the dollar the document names ("Amount Due (CAD)"); a Canadian business number with its program account', async () => {
    const found = await read(rows('Northern Pixel Studio Inc.', 'GST/HST No. 784123655 RT0001', 'Invoice Number 0000214', [['Subtotal', 300], ['$1,808.00', 450]], [['GST (5%)', 300], ['$90.40', 450]], [['Total', 300], ['$1,898.40', 450]], [['Amount Due (CAD)', 300], ['$1,898.40', 450]]));
    expect(found).toMatchObject({ Currency: 'CAD', VendorTaxId: '784123655RT0001' });
  });

  it('a bare "$" is read as US dollars but sure only with a US address (a state with its ZIP code): a North American telephone number may be Canadian; Canadian or Australian addresses make it their dollar', async () => {
    const totals = (...address: string[]) => rows('Harbour Signs Ltd.', ...address, 'Invoice Number 0000388', [['Subtotal', 300], ['$1,000.00', 450]], [['Tax', 300], ['$50.00', 450]], [['Total', 300], ['$1,050.00', 450]]);
    const currency = async (page: Placed[]) => {
      const pdf = await writeFixture(scratch.file(`layout-${++count}.pdf`), await textPdf([page]));
      const entity = (await firstPageEntities(invoicesUniversalModel, pdf, 'pdf')).find((e) => e.category === 'Currency' && !e.notDetected);
      return { code: entity?.keyValues[0]?.contentNormalized, confidence: entity?.confidence ?? 0 };
    };
    // No total to print it beside: the sign the document prints most.
    const itemsOnly = rows('Harbour Signs Ltd.', 'Invoice Number 0000389', [['Rate ($)', 300], ['Amount ($)', 400]], [['$20', 300], ['$40.00', 400]], [['$20', 300], ['$60.00', 400]], [['$20', 300], ['$20.00', 400]]);
    for (const page of [totals('12 Wharf Road', 'Halifax'), totals('12 Wharf Road', 'Tel. 902-555-0143'), itemsOnly]) {
      const unplaced = await currency(page);
      expect(unplaced.code).toBe('USD');
      expect(unplaced.confidence).toBeLessThan(0.9);
    }
    const american = await currency(totals('12 Wharf Road', 'Portland, ME 04101'));
    expect(american.code).toBe('USD');
    expect(american.confidence).toBeGreaterThanOrEqual(0.9);
    // Addresses of one country with a dollar of its own: that dollar, still below 0.9.
    for (const [address, code] of [['Kitchener, ON N2G 4G7', 'CAD'], ['Halifax, Nova Scotia B3H 1A1', 'CAD'], ['Brisbane QLD 4000', 'AUD']] as const) {
      const local = await currency(totals('12 Wharf Road', address));
      expect({ address, code: local.code }).toEqual({ address, code });
      expect(local.confidence).toBeLessThan(0.9);
    }
    // A US address beside a Canadian one: the US dollar, as the US address settles a bare "$".
    expect((await currency(totals('12 Wharf Road, Kitchener, ON N2G 4G7', 'Ship to: 40 Elm St, Buffalo, NY 14201'))).code).toBe('USD');
  });

  it('Italian: "Intestatario" of the bank account is the payee, not the customer; a name under its label wrapped to its legal form', async () => {
    const found = await read(
      rows(
        [['Ferretti Impianti S.r.l.', 50], ['SPETT.LE', 330]],
        [['Via Emilia Ovest, 214', 50], ['Caseificio Sociale Santa Rita Soc. Agr.', 330]],
        [['41123 Modena (MO)', 50], ['Coop.', 330]],
        [['P.IVA 03847290362', 50], ['Via Canaletto, 56', 330]],
        'Fattura n. 45/2024 del 12/03/2024',
        [['Totale documento', 300], ['5.386,30 €', 450]],
        'IBAN: IT70O0538712900000001847263',
        'Intestatario: Ferretti Impianti S.r.l.',
      ),
    );
    expect(found).toMatchObject({ VendorName: 'Ferretti Impianti S.r.l.', CustomerName: 'Caseificio Sociale Santa Rita Soc. Agr. Coop.' });
    // The holder over the account's IBAN, beside the bank's name.
    const over = await read(rows('Ing. Davide Ferraresi', 'SPETT.LE', 'Meccanica Reno S.r.l.', 'Numero: 18/2024', [['Totale documento', 300], ['€ 5.075,20', 450]], 'Intestatario: Davide Ferraresi · BPER Banca, Filiale di Bologna', 'IBAN: IT13 I053 8702 4000 0000 1984 372'));
    expect(over.CustomerName).toBe('Meccanica Reno S.r.l.');
  });

  it('subtotals as Odoo, SAP and Portuguese software label them; a tax whose base stands in a cell between it and its label', async () => {
    const odoo = await read(rows('Vanderbeke Solutions BV', 'Invoice INV/2024/00123', [['Untaxed Amount', 300], ['5,173.75 €', 450]], [['VAT 21%', 300], ['1,086.49 €', 450]], [['Total', 300], ['6,260.24 €', 450]]));
    expect(odoo).toMatchObject({ SubTotal: '5173.75', TotalTax: '1086.49', InvoiceTotal: '6260.24' });
    const sap = await read(rows('Heinrich Baumann Hydraulik GmbH', 'Belegnummer 90041237', [['Nettowert', 300], ['2.401,10', 450]], [['MwSt 19%', 300], ['auf 2.401,10', 380], ['456,21', 470]], [['Endbetrag', 300], ['EUR 2.857,31', 450]]));
    expect(sap).toMatchObject({ SubTotal: '2401.10', TotalTax: '456.21', InvoiceTotal: '2857.31' });
    const portuguese = await read(rows('Tecnirega, Lda.', 'Fatura FT A/245', [['Total Ilíquido', 300], ['1.642,30 €', 450]], [['Desconto', 300], ['35,55 €', 450]], [['Incidência', 300], ['1.606,75 €', 450]], [['IVA 23%', 300], ['369,55 €', 450]], [['Total do documento', 300], ['1.976,30 €', 450]]));
    expect(portuguese).toMatchObject({ SubTotal: '1606.75', InvoiceTotal: '1976.30' });
  });

  it('the legal name in the footer over the trade name of the letterhead; a dash inside a name, a dot read as "_"', async () => {
    const footer = (line: string) => [...rows('Rechnung 90041237', [['Endbetrag', 300], ['EUR 2.857,31', 450]]), { text: line, x: 50, y: 780, size: 7 }];
    const german = await read([{ text: 'BAUMANN HYDRAULIK', x: 50, y: 40, size: 18 }, ...footer('Heinrich Baumann Hydraulik GmbH _ Sitz der Gesellschaft: Aalen _ HRB 720114')]);
    expect(german.VendorName).toBe('Heinrich Baumann Hydraulik GmbH');
    const portuguese = await read(footer('Tecnirega - Sistemas de Rega, Lda. · Rua da Indústria, 45 · 2500-123 Caldas da Rainha'));
    expect(portuguese.VendorName).toBe('Tecnirega - Sistemas de Rega, Lda.');
  });

  it('a time entry\'s words are no labels: "... coordinate with client" names no customer, "tax lien" is no tax', async () => {
    const found = await read(
      rows(
        'Castellan & Reyes LLP',
        'Meridian Coastal Foods, Inc.',
        '5400 Sea Harbor Drive, Orlando, Florida 32809',
        [['Invoice No.', 330], ['25-00412', 430]],
        [['01/10/25 MPR', 50], ['Draft disclosure schedules 3.4 through 3.11; coordinate with client', 130], ['3.1', 470], ['961.00', 510]],
        [['finance team', 130]],
        [['01/13/25 PAL', 50], ['Order and review UCC, tax lien and judgment searches', 130], ['0.9', 470], ['148.50', 510]],
        [['TOTAL THIS INVOICE', 330], ['$1,109.50', 450]],
      ),
    );
    expect(found.CustomerName).not.toBe('finance team');
    expect(found.TotalTax).toBeUndefined();
    expect(found.InvoiceTotal).toBe('1109.50');
  });

  it('Belgian French "Total HTVA" / "Total TVAC", "Réf. client"; "USt. gesamt"; a branch after the legal name; a label over the name', async () => {
    const belgian = await read(rows('Fiduciaire Dewez & Associés SRL', 'Facture 2024/0217', [['Réf. client', 50], ['LAM-0412', 130]], [['Total HTVA', 300], ['1.505,00 €', 450]], [['TVA 21%', 300], ['316,05 €', 450]], [['Total TVAC', 300], ['1.821,05 €', 450]]));
    expect(belgian).toMatchObject({ SubTotal: '1505.00', TotalTax: '316.05', InvoiceTotal: '1821.05' });
    expect(belgian.CustomerName).not.toBe('LAM-0412');
    const german = await read([
      ...rows('Rechnung 304-118', [['Zwischensumme (ohne USt.)', 300], ['102,84 €', 450]], [['USt. gesamt', 300], ['19,54 €', 450]], [['Gesamtpreis', 300], ['122,38 €', 450]]),
      { text: 'Marktlinie EU S.à r.l., Niederlassung Deutschland · AG Frankfurt am Main HRB 118734 · USt-ID DE314827908', x: 50, y: 780, size: 7 },
    ]);
    expect(german).toMatchObject({ SubTotal: '102.84', TotalTax: '19.54', InvoiceTotal: '122.38', VendorName: 'Marktlinie EU S.à r.l.' });
    const saas = await read(rows('Invoice #  QM-2024-0318', [['From', 50], ['Bill to', 300]], [['Quillmetric, Inc.', 50], ['Harborline Logistics LLC', 300]], [['2261 Market Street, San Francisco, CA 94114', 50]], [['Amount due', 300], ['$17,250.00', 450]]));
    expect(saas).toMatchObject({ VendorName: 'Quillmetric, Inc.', CustomerName: 'Harborline Logistics LLC' });
  });
});

import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

/** The EN 16931 business terms as invoices of several EU languages print them, and what stands beside them. */
describe('invoice business terms in the EU languages', () => {
  const scratch = useScratchDir();
  let count = 0;
  const entities = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`eu-${++count}.pdf`), await textPdf([page]));
    return await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };
  const read = async (page: Placed[]) => fields(await entities(page));

  it('Czech, Polish and Danish labels of the number, the dates and the totals', async () => {
    const czech = await read(
      rows(
        [['Faktura - danovy doklad c. FV-7/2024', 50]],
        [['Datum vystaveni:', 50], ['12.03.2024', 200]],
        [['Datum splatnosti:', 50], ['26.03.2024', 200]],
        [['Celkem bez DPH', 300], ['5 500,00', 450]],
        [['DPH celkem', 300], ['1 155,00', 450]],
        [['Celkem k uhrade', 300], ['6 655,00 CZK', 450]],
      ),
    );
    expect(czech).toMatchObject({ InvoiceId: 'FV-7/2024', InvoiceDate: '2024-03-12', DueDate: '2024-03-26', SubTotal: '5500.00', TotalTax: '1155.00', InvoiceTotal: '6655.00' });
    const polish = await read(rows('Faktura VAT nr FV/117/2024', 'Data wystawienia: 2024-03-15', 'Termin platnosci: 2024-03-29', 'Wartosc netto 1 000,00', 'Kwota VAT 230,00', 'Wartosc brutto 1 230,00 PLN'));
    expect(polish).toMatchObject({ InvoiceId: 'FV/117/2024', InvoiceDate: '2024-03-15', DueDate: '2024-03-29', SubTotal: '1000.00', TotalTax: '230.00', InvoiceTotal: '1230.00' });
    const danish = await read(rows('Fakturanr. 20417', 'Fakturadato: 04.06.2024', 'Forfaldsdato: 04.07.2024', 'Total ekskl. moms 800,00', 'Moms i alt 200,00', 'Total inkl. moms 1.000,00 DKK'));
    expect(danish).toMatchObject({ InvoiceId: '20417', InvoiceDate: '2024-06-04', DueDate: '2024-07-04', SubTotal: '800.00', TotalTax: '200.00', InvoiceTotal: '1000.00' });
  });

  it('the delivery, order and print dates are not the issue date; an order or customer number is not the invoice number', async () => {
    const found = await read(
      rows(
        [['Bestell-Nr: B123456789', 300]],
        [['Bestell-Datum: 01.08.2013', 300]],
        [['Leistungs-Datum: 05.08.2013', 300]],
        [['Beleg-Nr: R87654321012345', 300]],
        [['Beleg-Datum: 06.08.2013', 300]],
        [['Gesamtbetrag 518,99 EUR', 300]],
      ),
    );
    expect(found).toMatchObject({ InvoiceId: 'R87654321012345', InvoiceDate: '2013-08-06' });
  });

  it('a Czech payment symbol is not the invoice number; the title\'s number, or a bare "Číslo", is', async () => {
    const titled = await read(rows('Faktura 20150009', 'Danovy doklad', [['Variabilni symbol', 50], ['233', 250]], [['Datum vystaveni', 50], ['10. 02. 2015', 250]]));
    expect(titled.InvoiceId).toBe('20150009');
    const numbered = await read(
      rows(
        [['Faktura - danovy doklad', 50], ['Cislo:', 300], ['FV-2/2021', 400]],
        [['Datum vystaveni:', 50], ['01.04.2021', 200], ['Variabilni symbol:', 300], ['10112', 450]],
        [['Var. symbol: 10112', 50]],
      ),
    );
    expect(numbered.InvoiceId).toBe('FV-2/2021');
  });

  it('a bare amount under the net and the tax that is their sum is the total; one that is not their sum is not', async () => {
    const page = (...last: Array<[string, number]>) =>
      rows('Faktura 20150009', [['Datum vystaveni', 50], ['10. 02. 2015', 250]], [['Celkem bez DPH', 300], ['1 000,00 Kc', 450]], [['DPH 21 %', 300], ['210,00 Kc', 450]], last);
    expect((await read(page(['1 210,00 Kc', 450]))).InvoiceTotal).toBe('1210.00');
    expect((await read(page(['1 500,00 Kc', 450]))).InvoiceTotal).toBeUndefined();
    // The sum beside another label is that label's amount (a payment, a balance), not a bare total.
    expect((await read(page(['Zaplaceno zalohou', 300], ['1 210,00 Kc', 450]))).InvoiceTotal).toBeUndefined();
  });

  it('"Netto" and "Brutto" after a total\'s label say which total it is; a tax line\'s tax is the rate of its base', async () => {
    const found = await read(
      rows(
        [['Rechnungssumme Netto (excl. USt.)', 100], ['473,00', 480]],
        [['Steuerbasisbetrag USt. 7%', 100], ['275,00', 400], ['19,25', 480]],
        [['Steuerbasisbetrag USt. 19%', 100], ['198,00', 400], ['37,62', 480]],
        [['Rechnungssumme Brutto (inkl. USt.)', 100], ['529,87', 480]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '473.00', TotalTax: '56.87', InvoiceTotal: '529.87' });
  });

  it('the sums at the foot of a tax breakdown\'s columns, not its first row', async () => {
    const found = await read(
      rows(
        [['Nettobetrag', 100], ['MwSt-Betrag', 250], ['Endbetrag', 400]],
        [['321,40', 100], ['61,07', 250], ['382,47', 400]],
        [['127,59', 100], ['8,93', 250], ['136,52', 400]],
        [['448,99', 100], ['70,00', 250], ['518,99', 400]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '448.99', TotalTax: '70.00', InvoiceTotal: '518.99' });
  });

  it('a tax office number is no VAT id: the VAT id where both are printed, the tax number alone only unsurely', async () => {
    const both = await entities(rows('Lieferant GmbH', 'Lieferantenstr. 20, 80333 Munchen', 'Rechnung Nr. 471102', 'Steuernr.: 201/113/40209', 'USt.-Identnr.: DE123456789', 'Gesamtbetrag 529,87 EUR'));
    expect(fields(both).VendorTaxId).toBe('DE123456789');
    const alone = await entities(rows('Lieferant GmbH', 'Lieferantenstr. 20, 80333 Munchen', 'Rechnung Nr. 471102', 'Steuernummer: 201/113/40209', 'Gesamtbetrag 529,87 EUR'));
    expect(fields(alone).VendorTaxId).toBe('201/113/40209');
    expect(confidence(alone, 'VendorTaxId')).toBeLessThan(0.9);
  });

  it('a party\'s word before a legal form is the name; a name row in the seller\'s block names the seller; a blank form label is no name', async () => {
    const issuer = await read(rows([['Rechnungsersteller', 300]], [['Lieferant GmbH', 320]], [['Lieferantenstrasse 20', 320]], [['80333 Munchen', 320]], 'Rechnungsnummer 471102', 'Gesamtbetrag 529,87 EUR'));
    expect(issuer.VendorName).toBe('Lieferant GmbH');
    const block = await read(
      rows(
        'Handelsrechnung (380) Nr. E2018092011804 vom 20.09.2018',
        'Verkaeufer',
        [['Nummer:', 60], ['549910', 400]],
        [['Name:', 60], ['Verkehrsbetriebe Nord GmbH', 400]],
        [['Ansprechpartner:', 60], ['Torti Mayer', 400]],
        [['Anschrift:', 60], ['Musterstrasse 3', 400]],
        'Zahlbetrag 9,00 EUR',
      ),
    );
    expect(block).toMatchObject({ InvoiceId: 'E2018092011804', InvoiceDate: '2018-09-20', VendorName: 'Verkehrsbetriebe Nord GmbH' });
    const blank = await read(rows('SELLER TRADE NAME', 'Rechnung Nr. 2024-17', 'Gesamtbetrag 100,00 EUR'));
    expect(blank.VendorName).toBeUndefined();
  });

  it('confidence: a field reaches 0.9 only with two agreeing kinds of evidence', async () => {
    const consistent = await entities(rows('Rechnung Nr. 2024-17', 'Rechnungsdatum 01.02.2024', 'Nettobetrag 100,00', 'MwSt. 19 % 19,00', 'Gesamtbetrag 119,00 EUR'));
    expect(confidence(consistent, 'InvoiceTotal')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(consistent, 'InvoiceId')).toBeGreaterThanOrEqual(0.9);
    // A total that no sum checks, a name one label gives: one kind of evidence each.
    const single = await entities(rows('Lieferant: Kraemer Handel', 'Rechnung Nr. 2024-17', 'Gesamtbetrag 119,00 EUR'));
    expect(fields(single)).toMatchObject({ VendorName: 'Kraemer Handel', InvoiceTotal: '119.00' });
    expect(confidence(single, 'InvoiceTotal')).toBeLessThan(0.9);
    expect(confidence(single, 'VendorName')).toBeLessThan(0.9);
    // Two VAT ids of the seller that differ: the evidence conflicts.
    const vatIds = (...ids: string[]) => rows('Kraemer Handel GmbH', 'Hafenstrasse 4, 20457 Hamburg', ...ids, 'Rechnung Nr. 2024-17', 'Gesamtbetrag 119,00 EUR');
    expect(confidence(await entities(vatIds('USt-IdNr.: DE136695976')), 'VendorTaxId')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(await entities(vatIds('USt-IdNr.: DE136695976', 'USt-IdNr.: DE987654321')), 'VendorTaxId')).toBeLessThan(0.9);
    // A VAT id whose check digits fail (a placeholder, or a digit misprinted) is not sure either.
    expect(confidence(await entities(vatIds('USt-IdNr.: DE123456789')), 'VendorTaxId')).toBeLessThan(0.9);
    // Zeros add up trivially: no check.
    const zeros = await entities(rows('Rechnung Nr. 2024-17', 'Nettobetrag 0,00', 'MwSt. 0,00', 'Gesamtbetrag 0,00 EUR'));
    expect(confidence(zeros, 'InvoiceTotal')).toBeLessThan(0.9);
  });
});

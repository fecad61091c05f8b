import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

/** The normalised value of every field found, by category. */
function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

/** Lines of text, one under the other from y = 60, each at its own x. */
const lines = (...texts: Array<string | [string, number]>): Placed[] =>
  texts.map((text, i) => (typeof text === 'string' ? { text, x: 50, y: 60 + 16 * i } : { text: text[0], x: text[1], y: 60 + 16 * i }));

describe('invoice fields', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`invoice-${++count}.pdf`), await textPdf([page]));
    return await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  describe('label vocabulary and grammar, in the languages of the invoices', () => {
    it('French: number and date in one sentence, the number glued to "n°"', async () => {
      const found = fields(await read(lines('Facture n°2024-118 du 3 mars 2024', 'Échéance : 2 avril 2024', 'Total HT 1 000,00 €', 'TVA 20 % 200,00 €', 'Net à payer 1 200,00 €')));
      expect(found).toMatchObject({ InvoiceId: '2024-118', InvoiceDate: '2024-03-03', DueDate: '2024-04-02', SubTotal: '1000.00', TotalTax: '200.00', InvoiceTotal: '1200.00', Currency: 'EUR' });
    });

    it('French: the VAT number is the vendor\'s tax id, the SIRET (its registration) only when no VAT number is printed', async () => {
      const header = (...ids: string[]) => lines('Atelier Lumière SARL', '12 rue des Arts, 69002 Lyon', ...ids, 'FACTURE N° F-2024-0042', 'Total TTC 1 234,80 €');
      expect(fields(await read(header('SIRET 123 456 789 00012', 'TVA intracom. FR40123456824'))).VendorTaxId).toBe('FR40123456824');
      expect(fields(await read(header('SIRET 123 456 789 00012'))).VendorTaxId).toBe('12345678900012');
    });

    it('the vendor\'s VAT id is the one holding the SIREN its block prints, not a template footer\'s holding another', async () => {
      const page: Placed[] = [
        { text: 'LE FOURNISSEUR', x: 50, y: 40, size: 14 },
        { text: '35 rue des Lilas, 75018 Paris', x: 50, y: 58 },
        { text: 'SIREN : 123 456 782', x: 50, y: 72 },
        { text: 'N° TVA : FR 11 123 456 782', x: 50, y: 86 },
        { text: 'FACTURE N° : F20220024', x: 330, y: 40 },
        { text: 'Total TTC 1 200,00 €', x: 330, y: 200 },
        { text: 'FOURNISSEUR F SARL au capital de 50 000 EUR - RCS PARIS 123 456 782', x: 80, y: 760, size: 7 },
        { text: '35 rue des Lilas, 75018 Paris - contact@fournisseur.fr - N° TVA : FR32 123 456 789', x: 80, y: 770, size: 7 },
      ];
      expect(fields(await read(page)).VendorTaxId).toBe('FR11123456782');
    });

    it('the tax number on the vendor\'s legal line in the footer is the vendor\'s, though only a SIRET heads its block', async () => {
      const found = fields(
        await read([
          { text: 'Atelier Duval SARL', x: 50, y: 40, size: 16 },
          { text: '27, rue des Tanneurs, 69005 Lyon', x: 50, y: 60 },
          { text: 'SIRET 303 265 045 00027', x: 50, y: 72 },
          { text: 'Mairie de Saint-Julien', x: 330, y: 110 },
          { text: '1 place de la Mairie, 69640 Saint-Julien', x: 330, y: 122 },
          { text: 'Facture n° FA-2024-118 du 3 mars 2024', x: 50, y: 170 },
          { text: 'Total TTC 5 040,00 €', x: 330, y: 400 },
          { text: 'Atelier Duval SARL au capital de 10 000 € - N° TVA intracommunautaire : FR 40 303265045', x: 50, y: 800, size: 8 },
        ]),
      );
      expect(found.VendorTaxId).toBe('FR40303265045');
      expect(found.CustomerTaxId).toBeUndefined();
    });

    it('numbers printed in digit groups, a number after "#", and payment terms that are no receipt number', async () => {
      const telecom = fields(await read(lines('Funkwerk Mobil GmbH', 'Kundennummer 44 556 677', 'Rechnungsnummer 123 456 7890', 'Datum 05.03.2024', 'Rechnungsbetrag 39,99 €')));
      expect(telecom.InvoiceId).toBe('1234567890');
      const zoho = fields(await read(lines('Pixelcraft Studios Private Limited', 'TAX INVOICE', '# INV-000012', 'Invoice Date : 12 Jan 2024', 'Terms : Due on Receipt', 'Due Date : 12 Jan 2024', 'Total Rs. 5,900.00')));
      expect(zoho).toMatchObject({ InvoiceId: 'INV-000012', InvoiceDate: '2024-01-12' });
      // "Nº:" read by OCR as "N2:" under the title: the number's label, not the number.
      const spanish = fields(await read(lines('Talleres Ruiz S.L.', 'FACTURA', 'N2: A-2024-0093', 'Fecha: 07/05/2024', 'TOTAL FACTURA 1.512,50 €')));
      expect(spanish.InvoiceId).toBe('A-2024-0093');
    });

    it('a tax named with its rate glued ("IGST18 (18%)"); the currency an amount in words or a GSTIN names', async () => {
      const zoho = fields(await read(lines('Pixelcraft Studios Private Limited', 'GSTIN 27AAHCP4567Q1ZM', 'Invoice No: INV-000012', 'Sub Total 5,000.00', 'IGST18 (18%) 900.00', 'Total 5,900.00', 'Total In Words: Indian Rupee Five Thousand Nine Hundred Only')));
      expect(zoho).toMatchObject({ SubTotal: '5000.00', TotalTax: '900.00', InvoiceTotal: '5900.00', Currency: 'INR' });
      // OCR lost the ₹: only the seller's GSTIN (its 0 read as O) tells the rupee.
      const gstin = fields(await read(lines('Retailnet Commerce Private Limited', 'GSTIN - O7AAJCR1234D1ZX', 'Invoice Number FAAB7C24001234', 'Grand Total 1299.00')));
      expect(gstin.Currency).toBe('INR');
      // The ₹ read as ¥ on a page of Indian taxes.
      const yen = fields(await read(lines('Retailnet Commerce Private Limited', 'Invoice Number FAAB7C24001234', 'Taxable Value 1,100.85', 'IGST 198.15', 'Grand Total ¥ 1299.00')));
      expect(yen.Currency).toBe('INR');
    });

    it('the date inside a total\'s label is the due date: "TOTAL AMOUNT DUE ON April 1, 2024"', async () => {
      const found = fields(await read(lines('Cloudway Services, Inc.', 'Invoice Number: 1782345690', 'Invoice Date: March 2, 2024', 'TOTAL AMOUNT DUE ON April 1, 2024 $54.23')));
      expect(found).toMatchObject({ InvoiceDate: '2024-03-02', DueDate: '2024-04-01', InvoiceTotal: '54.23' });
    });

    it('German: "Netto", "MwSt.", "Brutto" alone label the subtotal, the tax and the total', async () => {
      const found = fields(await read(lines('Elektro Schmid e.K.', 'Rechnung: R-2024-0456', 'Datum: 02.09.2024', 'Netto 780,00 €', 'MwSt. 19 % 148,20 €', 'Brutto 928,20 €')));
      expect(found).toMatchObject({ SubTotal: '780.00', TotalTax: '148.20', InvoiceTotal: '928.20' });
    });

    it('Dutch: the date "uiterlijk" (at the latest) the sum is to be paid is the due date', async () => {
      const found = fields(await read(lines('Vertaalbureau Linde', 'Factuur 2024-031', 'Enschede, 28 maart 2024', 'Totaal € 1.016,40', 'Graag ontvang ik het bedrag binnen 14 dagen, uiterlijk 11 april 2024, op rekening.')));
      expect(found).toMatchObject({ InvoiceDate: '2024-03-28', DueDate: '2024-04-11' });
    });

    it('French: "Facture du" dates the invoice, "à régler avant le" is when it is due', async () => {
      const found = fields(await read(lines('Lumière Énergie', 'Facture du 12/02/2024', 'N° de facture : 10012345678', 'Montant TTC à payer 84,50 €', 'à régler avant le 27/02/2024')));
      expect(found).toMatchObject({ InvoiceId: '10012345678', InvoiceDate: '2024-02-12', DueDate: '2024-02-27', InvoiceTotal: '84.50' });
    });

    it('English party labels of statements and marketplaces: "Billing Address", "Service for"', async () => {
      const billing = fields(await read(lines('Cloudtail India Private Limited', 'Invoice Number : BLR7-1234567', ['Billing Address :', 300], ['Rohit Verma', 300], ['14 MG Road, Pune 411001', 300], 'TOTAL: Rs. 1,299.00')));
      expect(billing.CustomerName).toBe('Rohit Verma');
      expect(fields(await read(lines('Cascade Power & Light', 'Service for: Maria Gonzalez', '1844 SE Alder St, Portland, OR 97214', 'Total Amount Due $84.12'))).CustomerName).toBe('Maria Gonzalez');
    });

    it('letters: "Our ref" numbers the document, "Your ref" is the addressee\'s; "VAT at 20%"; "Factuur aan"', async () => {
      const fee = fields(await read(lines('Harrison & Cole Solicitors', 'Your Ref: DP/house', 'Our Ref: REF-7781', 'Professional fees £1,200.00', 'VAT at 20% £240.00', 'Total £1,440.00')));
      expect(fee).toMatchObject({ InvoiceId: 'REF-7781', TotalTax: '240.00', InvoiceTotal: '1440.00' });
      const dutch = fields(await read(lines('Groen & Zn. Hoveniers', 'Factuurnummer: F20240312', 'Factuur aan:', 'VvE De Linde', 'Lindelaan 1-40', 'Totaal incl. BTW € 1.452,00')));
      expect(dutch).toMatchObject({ CustomerName: 'VvE De Linde', InvoiceId: 'F20240312' });
    });

    it('a letter dated with its town, alone on a line, is dated so: "München, 05.03.2024"', async () => {
      const entities = await read(lines('Schreinerei Huber GmbH', 'Rechnung Nr. RE-2024-118', ['München, 05.03.2024', 400], 'Lieferung vom 01.03.2024', 'Rechnungsbetrag 1.190,00 €'));
      expect(fields(entities).InvoiceDate).toBe('2024-03-05');
      expect(confidence(entities, 'InvoiceDate')).toBeGreaterThan(0.5);
    });

    it('British: the tax point dates the invoice, the payment date is when it is due', async () => {
      const entities = await read(lines('Kestrel Plumbing Ltd', 'Invoice: INV-10387', 'Tax point: 14/02/2024', 'Payment due: 15/03/2024', 'Invoice total £768.00'));
      expect(fields(entities)).toMatchObject({ InvoiceId: 'INV-10387', InvoiceDate: '2024-02-14', DueDate: '2024-03-15', InvoiceTotal: '768.00', Currency: 'GBP' });
      // Labelled, not a date guessed for want of one.
      expect(confidence(entities, 'InvoiceDate')).toBeGreaterThan(0.9);
    });

    it('Dutch: one-word labels and Dutch month names', async () => {
      const found = fields(await read(lines('Factuurnummer: 2024-0042', 'Factuurdatum: 15 maart 2024', 'Vervaldatum: 14 april 2024', 'Subtotaal € 1.000,00', 'BTW 21% € 210,00', 'Totaal te betalen € 1.210,00')));
      expect(found).toMatchObject({ InvoiceId: '2024-0042', InvoiceDate: '2024-03-15', DueDate: '2024-04-14', SubTotal: '1000.00', TotalTax: '210.00', InvoiceTotal: '1210.00' });
    });

    it('German: abbreviated labels, the tax rate before its word', async () => {
      const found = fields(await read(lines('Rechnungs-Nr. RE-10023', 'Datum 05.06.2024', 'Zahlbar bis 19.06.2024', 'Zwischensumme 1.000,00 EUR', 'zzgl. 19% MwSt. 190,00 EUR', 'Gesamtbetrag 1.190,00 EUR')));
      expect(found).toMatchObject({ InvoiceId: 'RE-10023', InvoiceDate: '2024-06-05', DueDate: '2024-06-19', SubTotal: '1000.00', TotalTax: '190.00', InvoiceTotal: '1190.00' });
    });

    it('a party\'s number is not its name, and a name ends where its address follows on its line', async () => {
      const found = fields(
        await read([
          { text: 'Brightline Supplies Ltd', x: 40, y: 40 },
          { text: 'Invoice No.', x: 40, y: 110 }, { text: 'Invoice Date', x: 150, y: 110 }, { text: 'Customer ID', x: 260, y: 110 },
          { text: 'BL-55021', x: 40, y: 126 }, { text: '07/03/2024', x: 150, y: 126 }, { text: 'C-1180', x: 260, y: 126 },
          { text: 'Invoice to: Kestrel Cafe Ltd, 4 Mill Lane, Bath BA1 1AA', x: 40, y: 160 },
          { text: 'TOTAL GBP 151.20', x: 360, y: 282 },
        ]),
      );
      expect(found).toMatchObject({ CustomerName: 'Kestrel Cafe Ltd', InvoiceId: 'BL-55021', InvoiceDate: '2024-03-07' });
    });

    it('French "Net à payer" as OCR reads it, its à an ampersand', async () => {
      const found = fields(await read(lines('Facture n°2024-118 du 3 mars 2024', 'Total HT 1 510,00 €', 'TVA 20 % 302,00 €', 'Net & payer 1 812,00 €')));
      expect(found).toMatchObject({ InvoiceTotal: '1812.00', SubTotal: '1510.00', TotalTax: '302.00' });
    });

    it('simple invoices: "To:" names the customer; a paid invoice\'s receipt is numbered by the invoice', async () => {
      const simple = fields(await read(lines('From: Clearwater Cleaning Services', 'To: Mrs A. Patel', 'Invoice number: 0193', 'Total amount due £305.00')));
      expect(simple).toMatchObject({ CustomerName: 'Mrs A. Patel', VendorName: 'Clearwater Cleaning Services', InvoiceId: '0193' });
      const receipt = fields(await read(lines('Receipt from Linear Orbit, Inc.', 'Receipt number 2841-5567', 'Invoice number A1B2C3D4-0007', 'Date paid April 2, 2024', 'Total $49.00')));
      expect(receipt).toMatchObject({ InvoiceId: 'A1B2C3D4-0007', InvoiceDate: '2024-04-02' });
    });

    it('Swiss: the VAT number after "MWST" alone, as letterheads print it', async () => {
      const found = fields(await read(lines('Hotel Bellevue Zürich AG', 'Limmatquai 40 · 8001 Zürich · MWST CHE-116.281.710 MWST', 'Rechnung Nr. 558120', "Total CHF 1'245.60")));
      expect(found).toMatchObject({ VendorTaxId: 'CHE116281710', InvoiceId: '558120', InvoiceTotal: '1245.60' });
    });

    it('German VAT id label as OCR spells it, its I read as an l ("USt-ldNr.")', async () => {
      const found = fields(await read(lines('Müller & Söhne GmbH', 'Rechnungs-Nr. RE-10023', 'Gesamtbetrag 1.190,00 EUR', 'Zahlbar ohne Abzug. USt-ldNr.: DE129273398')));
      expect(found).toMatchObject({ VendorTaxId: 'DE129273398', InvoiceId: 'RE-10023' });
    });

    it('Italian and Spanish labels and month names', async () => {
      expect(fields(await read(lines('Fattura n. 118/2024', 'Data 3 marzo 2024', 'Imponibile 100,00', 'IVA 22% 22,00', 'Totale documento 122,00')))).toMatchObject({
        InvoiceId: '118/2024',
        InvoiceDate: '2024-03-03',
        SubTotal: '100.00',
        TotalTax: '22.00',
        InvoiceTotal: '122.00',
      });
      expect(fields(await read(lines('Nº Factura: F-2024-77', 'Fecha de emisión: 3 de marzo de 2024', 'Base imponible 100,00', 'IVA 21% 21,00', 'Total a pagar 121,00')))).toMatchObject({
        InvoiceId: 'F-2024-77',
        InvoiceDate: '2024-03-03',
        InvoiceTotal: '121.00',
      });
    });

    it('English totals: through leaders, "Nett Total", "Total Payable", "Grand Total"', async () => {
      expect(fields(await read(lines('Statement of account', 'Total for this period ........................ EUR 12.30')))).toMatchObject({ InvoiceTotal: '12.30', Currency: 'EUR' });
      expect(fields(await read(lines('Sub Total 10.00', 'Service Tax 6% 0.60', 'Nett Total 10.60')))).toMatchObject({ SubTotal: '10.00', TotalTax: '0.60', InvoiceTotal: '10.60' });
      expect(fields(await read(lines('Taxable Value 500.00', 'IGST @ 18% 90.00', 'Total Payable Rs. 590.00')))).toMatchObject({ InvoiceTotal: '590.00', TotalTax: '90.00', Currency: 'INR' });
      expect(fields(await read(lines('Invoice # 10482', 'Grand Total $1,234.56')))).toMatchObject({ InvoiceId: '10482', InvoiceTotal: '1234.56', Currency: 'USD' });
    });
  });

  describe('label to value by geometry', () => {
    it('reads values far right of their labels, under them (a header row over its cells) and in the next column', async () => {
      const found = fields(
        await read([
          { text: 'Northwind Supplies Ltd', x: 50, y: 40, size: 16 },
          { text: 'Invoice No.', x: 50, y: 100 },
          { text: 'Invoice Date', x: 200, y: 100 },
          { text: 'Due Date', x: 350, y: 100 },
          { text: 'INV-0042', x: 50, y: 116 },
          { text: '15/01/2024', x: 200, y: 116 },
          { text: '14/02/2024', x: 350, y: 116 },
          { text: 'Bill to:', x: 50, y: 160 },
          { text: 'Contoso Trading GmbH', x: 50, y: 174 },
          { text: 'Subtotal', x: 330, y: 300 },
          { text: '1,000.00', x: 500, y: 300 },
          { text: 'VAT 20%', x: 330, y: 316 },
          { text: '200.00', x: 500, y: 316 },
          // The amount a little lower than its label, as OCR often sets a larger total.
          { text: 'Total due', x: 330, y: 332 },
          { text: '1,200.00 GBP', x: 480, y: 340, size: 14 },
        ]),
      );
      expect(found).toMatchObject({
        InvoiceId: 'INV-0042',
        InvoiceDate: '2024-01-15',
        DueDate: '2024-02-14',
        CustomerName: 'Contoso Trading GmbH',
        SubTotal: '1000.00',
        TotalTax: '200.00',
        InvoiceTotal: '1200.00',
        Currency: 'GBP',
      });
    });

    it('reads a totals row of a table, the tax column\'s sum before the total, as the total the sums make', async () => {
      const found = fields(
        await read([
          { text: 'Invoice Number : DEL5-123456', x: 300, y: 60 },
          { text: 'Order Number: 403-1234567-8901234', x: 40, y: 60 },
          { text: 'Description', x: 40, y: 100 }, { text: 'Net Amount', x: 330, y: 100 }, { text: 'Tax Amount', x: 420, y: 100 }, { text: 'Total', x: 510, y: 100 },
          { text: 'Wireless Mouse M185', x: 40, y: 116 }, { text: '593.22', x: 330, y: 116 }, { text: '106.78', x: 420, y: 116 }, { text: '700.00', x: 510, y: 116 },
          { text: 'TOTAL:', x: 40, y: 140 }, { text: '106.78', x: 420, y: 140 }, { text: '700.00', x: 510, y: 140 },
        ]),
      );
      // The order's number is another document's: the invoice has a number of its own.
      expect(found).toMatchObject({ InvoiceTotal: '700.00', InvoiceId: 'DEL5-123456' });
    });

    it('reads the total past other figures of its row, and never a party in "Buyer\'s Order No."', async () => {
      const found = fields(
        await read([
          { text: 'Invoice No.', x: 300, y: 60 }, { text: 'Dated', x: 430, y: 60 }, { text: 'SLE/245/24-25', x: 300, y: 74 }, { text: '18-Jun-24', x: 430, y: 74 },
          { text: "Buyer's Order No.", x: 300, y: 124 }, { text: 'Dated', x: 430, y: 124 }, { text: 'PO-8812', x: 300, y: 138 }, { text: '10-Jun-24', x: 430, y: 138 },
          { text: 'Buyer (Bill to)', x: 40, y: 130 }, { text: 'Vijay Builders Pvt Ltd', x: 40, y: 144 },
          { text: 'Total', x: 80, y: 290 }, { text: '10 Coil', x: 340, y: 290 }, { text: 'Rs. 1,00,300.00', x: 490, y: 290 },
        ]),
      );
      expect(found).toMatchObject({ InvoiceTotal: '100300.00', CustomerName: 'Vijay Builders Pvt Ltd', InvoiceId: 'SLE/245/24-25', InvoiceDate: '2024-06-18' });
    });

    it('reads the total past the tax column\'s sum when the row\'s figures make one line beside its label', async () => {
      const found = fields(await read([
        { text: 'Cloudtail India Private Limited', x: 40, y: 40 },
        { text: 'Invoice Number : BLR7-1234567', x: 40, y: 60 },
        { text: 'TOTAL:', x: 40, y: 200 },
        { text: 'Rs.198.15 Rs.1,299.00', x: 400, y: 200 },
      ]));
      expect(found).toMatchObject({ InvoiceTotal: '1299.00' });
    });

    it('reads the value under its label past rows of specks (a scanned table\'s ruling read as marks)', async () => {
      const page: Placed[] = [
        { text: 'Shree Krishna Traders Pvt. Ltd.', x: 50, y: 40, size: 14 },
        { text: 'Buyer:', x: 50, y: 100 },
        { text: ':', x: 300, y: 106, size: 3 },
        { text: '.', x: 340, y: 111, size: 3 },
        { text: 'Mahalaxmi Stores', x: 50, y: 118 },
        { text: 'Kothrud, Pune 411038', x: 50, y: 132 },
        { text: 'Grand Total 1,18,000.00', x: 300, y: 200 },
      ];
      expect(fields(await read(page)).CustomerName).toBe('Mahalaxmi Stores');
    });

    it('takes no account the amount is debited from for the IBAN to pay into', async () => {
      const debited = (sentence: string) => read(lines('Huber Elektro GmbH', 'Rechnung Nr. RE-2024-118', 'Gesamtbetrag 1.190,00 €', sentence));
      for (const sentence of ['Wird von Konto DE89370400440532013000 abgebucht', 'The amount will be debited from your account GB82 WEST 1234 5698 7654 32', 'Montant prélevé sur le compte FR14 2004 1010 0505 0001 3M02 606']) {
        expect(fields(await debited(sentence)), sentence).not.toHaveProperty('IBAN');
      }
      // A footer naming the ways to pay beside the seller's own account is no debit.
      expect(fields(await debited('Zahlbar per Überweisung oder Lastschrift · IBAN DE89 3704 0044 0532 0130 00')).IBAN).toBe('DE89370400440532013000');
    });

    it('reports an IBAN put right by its country\'s format less surely than one read whole', async () => {
      const page = (iban: string) => lines('Northwind Supplies Ltd', 'Invoice No: INV-2024-0117', 'Total due 1,537.50 EUR', `IBAN: ${iban}`);
      const whole = await read(page('GB82 WEST 1234 5698 7654 32'));
      const repaired = await read(page('GB82 WE5T 1234 5698 7654 32'));
      expect([fields(whole).IBAN, fields(repaired).IBAN]).toEqual(['GB82WEST12345698765432', 'GB82WEST12345698765432']);
      expect(confidence(whole, 'IBAN')).toBeGreaterThanOrEqual(0.9);
      expect(confidence(repaired, 'IBAN')).toBeLessThan(0.9);
    });

    it('reads an IBAN a footer wraps onto its next line, whole only when its check digits say so', async () => {
      const footer = (tail: string) => lines('Rechnung Nr. RE-2024-118', 'Gesamtbetrag 1.190,00 €', 'Huber GmbH · HRB 123456 · Stadtsparkasse München · IBAN DE89 3704 0044 0532 0130', `${tail} · BIC COBADEFFXXX`);
      const wrapped = await read(footer('00'));
      expect(fields(wrapped).IBAN).toBe('DE89370400440532013000');
      expect(wrapped.find((e) => e.category === 'IBAN')!.keyValues[0]!.content).toBe('DE89 3704 0044 0532 0130 00');
      expect(fields(await read(footer('01'))).IBAN).toBeUndefined();
    });

    it('picks the total that subtotal and tax add up to, not the last one printed', async () => {
      const entities = await read([
        { text: 'Subtotal', x: 330, y: 60 },
        { text: '1,000.00', x: 500, y: 60 },
        { text: 'VAT 21%', x: 330, y: 76 },
        { text: '210.00', x: 500, y: 76 },
        { text: 'Total', x: 330, y: 92 },
        { text: '1,210.00', x: 500, y: 92 },
        { text: 'Payments received', x: 50, y: 140 },
        { text: 'Total', x: 330, y: 156 },
        { text: '400.00', x: 500, y: 156 },
      ]);
      expect(fields(entities)).toMatchObject({ SubTotal: '1000.00', TotalTax: '210.00', InvoiceTotal: '1210.00' });
    });
    it('reads a header\'s cell in the row under it when the header\'s labels make one line and its values several', async () => {
      // "Rechnungs-Nr. Ausstellungsdatum" is one line; under it the date, wider, lies most under
      // that line, and the number is a line of its own.
      const found = fields(
        await read([
          { text: 'Rechnungs-Nr.', x: 49, y: 128, size: 9 },
          { text: 'Ausstellungsdatum', x: 118, y: 128, size: 9 },
          { text: 'Fällig am', x: 243, y: 128, size: 9 },
          { text: '2023/562', x: 49, y: 146, size: 9 },
          { text: '27. September 2023', x: 128, y: 146, size: 9 },
          { text: '11. Oktober 2023', x: 228, y: 146, size: 9 },
          { text: 'Summe netto: € 686,50', x: 330, y: 300 },
          { text: 'MwSt. 10%: € 68,65', x: 330, y: 316 },
          { text: 'Zu zahlen: € 755,15', x: 330, y: 332 },
        ]),
      );
      expect(found).toMatchObject({ InvoiceId: '2023/562', InvoiceDate: '2023-09-27', DueDate: '2023-10-11', InvoiceTotal: '755.15' });
    });
  });

  describe('names across lines', () => {
    it('a seller\'s name a narrow column wrapped after its label, up to its legal form', async () => {
      const found = fields(await read(lines('Tax Invoice', 'Sold By: Retailnet', 'Commerce Private', 'Limited,', 'Ship-from Address: Khasra No 45, New Delhi', 'Invoice Number FAAB7C24001234', 'Grand Total 1299.00')));
      expect(found.VendorName).toBe('Retailnet Commerce Private Limited');
    });

    it('a party\'s name without the mark OCR read from a speck before it ("¡Mehta Textiles")', async () => {
      const found = fields(await read(lines('SHREE KRISHNA ENTERPRISES', 'Invoice No. SKE/2324/0917', 'Buyer (Bill to)', '¡Mehta Textiles Pvt Ltd', 'Plot 44, MIDC Tarapur', 'Total Rs. 11,800.00')));
      expect(found.CustomerName).toBe('Mehta Textiles Pvt Ltd');
    });

    it('the customer under "Bill to Address:", past the line of the person it is for', async () => {
      const found = fields(await read(lines('Cloudway Services, Inc.', 'Invoice Number: 1782345690', 'Bill to Address:', 'ATTN: Accounts Payable', 'Brightpath Software LLC', '1200 Pine St', 'Total for this invoice $54.23')));
      expect(found.CustomerName).toBe('Brightpath Software LLC');
    });
  });

  describe('the customer of a letter, unlabelled', () => {
    // The vendor's block at the top right, the addressee's block in the envelope's window on the left.
    const letter = (customer: Placed[], footer = 'Bank: ING · IBAN NL91 ABNA 0417 1643 00'): Placed[] => [
      { text: 'Bakkerij de Vries B.V.', x: 380, y: 50, size: 14 },
      { text: 'Dorpsstraat 14', x: 380, y: 68 },
      { text: '1234 AB Haarlem', x: 380, y: 82 },
      { text: 'BTW NL853412767B01', x: 380, y: 96 },
      ...customer,
      { text: 'FACTUUR', x: 50, y: 260, size: 16 },
      { text: 'Factuurnummer: 2024-0312', x: 50, y: 290 },
      { text: 'Totaal te betalen € 1.000,00', x: 50, y: 320 },
      { text: footer, x: 50, y: 700 },
    ];
    const window = (...lines: string[]): Placed[] => lines.map((text, i) => ({ text, x: 50, y: 150 + 14 * i }));

    it('is the first line of the address block in the window: a name over its street and its postcode and town', async () => {
      expect(fields(await read(letter(window('Hotel Zeezicht', 't.a.v. de administratie', 'Boulevard 3', '2042 AA Zandvoort')))).CustomerName).toBe('Hotel Zeezicht');
      // Under a sender line in small print, as OCR may garble it: the block starts under it.
      const sender: Placed = { text: 'Bakkerij de Vries - Dorpsstraat 14 - Haarlem', x: 50, y: 136, size: 7 };
      expect(fields(await read(letter([sender, ...window('Praxis Dr. Anna Klein', 'Sonnenstraße 22', '80331 München')]))).CustomerName).toBe('Praxis Dr. Anna Klein');
      // Under the salutation a letter puts over the name.
      expect(fields(await read(letter(window('Herr', 'Thomas Meier', 'Seestrasse 8', '6300 Zug')))).CustomerName).toBe('Thomas Meier');
      // Under a sender line OCR read in pieces side by side.
      const pieces: Placed[] = ['Bakkerij de', 'Vries -', 'Dorps', '14 -'].map((text, i) => ({ text, x: 50 + 45 * i, y: 136, size: 8 }));
      expect(fields(await read(letter([...pieces, ...window('Praxis Dr. Anna Klein', 'Sonnenstraße 22', '80331 München')]))).CustomerName).toBe('Praxis Dr. Anna Klein');
      // Under the letter's date, with the person it is for inside the block ("Attn: ...").
      expect(fields(await read(letter(window('March 5th, 2024', 'Sunset Diner', 'Attn: Rick Alvarez', '2100 Virginia St', 'Reno, NV 89501')))).CustomerName).toBe('Sunset Diner');
      // Under what OCR left of its label ("Billed" of "Billed to").
      expect(fields(await read(letter(window('Billed', 'Harbourside Design Studio Limited', '56 Harbour Road', 'Manchester M3 1UM')))).CustomerName).toBe('Harbourside Design Studio Limited');
    });

    it('is not a block without a postcode line, nor the vendor\'s own block when the window is empty', async () => {
      expect(fields(await read(letter(window('Hotel Zeezicht', 'Boulevard 3'))))).not.toHaveProperty('CustomerName');
      // A box of account details over a labelled address is no address block.
      expect(fields(await read(letter(window('Account Number', '4471-2209-1183', 'Service at: 1844 SE Alder St', 'Portland, OR 97214'))))).not.toHaveProperty('CustomerName');
      const alone = fields(await read(letter([])));
      expect(alone.VendorName).toBe('Bakkerij de Vries B.V.');
      expect(alone).not.toHaveProperty('CustomerName');
    });
  });

  describe('normalisation across the document', () => {
    it('reads an ambiguous date the way the document\'s other dates are written', async () => {
      expect(fields(await read(lines('Invoice date: 03/04/2024', 'Due date: 18/04/2024', 'Total 10.00')))).toMatchObject({ InvoiceDate: '2024-04-03', DueDate: '2024-04-18' });
      expect(fields(await read(lines('Invoice date: 03/04/2024', 'Due date: 04/18/2024', 'Total 10.00')))).toMatchObject({ InvoiceDate: '2024-03-04', DueDate: '2024-04-18' });
    });

    it('reads it month first on an American invoice', async () => {
      const found = fields(await read(lines('Redwood Supplies Inc.', '120 Market Street, Austin, TX 78701', 'Invoice date: 03/04/2024', 'Total $10.00')));
      expect(found).toMatchObject({ InvoiceDate: '2024-03-04', Currency: 'USD' });
    });

    it('reads Indian amounts and currencies', async () => {
      // The text layer's standard fonts have no ₹ sign: INR and Rs. stand for it.
      const found = fields(await read(lines('Taxable Value INR 1,00,000.00', 'CGST @ 9% 9,000.00', 'SGST @ 9% 9,000.00', 'Total Rs. 1,18,000.00')));
      expect(found).toMatchObject({ SubTotal: '100000.00', TotalTax: '18000.00', InvoiceTotal: '118000.00', Currency: 'INR' });
    });
  });

  describe('confidence', () => {
    it('keeps a date below 0.9 when only a guess of the day-or-month order reads it', async () => {
      const dated = (...lines_: string[]) => read(lines('Harbour Signs Ltd.', 'Invoice Number: 0000388', ...lines_));
      // Dollars without a US address (Canada writes either order), or no currency: 3 April or 4 March.
      const guessed = await dated('Invoice date: 03/04/2024', 'Total $10.00');
      expect(fields(guessed).InvoiceDate).toBe('2024-04-03');
      expect(confidence(guessed, 'InvoiceDate')).toBeLessThan(0.9);
      expect(confidence(await dated('Invoice date: 03/04/2024', 'Total 10.00'), 'InvoiceDate')).toBeLessThan(0.9);
      // What settles the order: a US address, a date with a day over 12, a day-first currency, a dotted date, a date the order cannot change.
      for (const settled of [
        await dated('120 Market Street, Austin, TX 78701', 'Invoice date: 03/04/2024', 'Total $10.00'),
        await dated('Invoice date: 03/04/2024', 'Due date: 18/04/2024', 'Total $10.00'),
        await dated('Invoice date: 03/04/2024', 'Total 10.00 EUR'),
        await dated('Invoice date: 03.04.2024', 'Total $10.00'),
        await dated('Invoice date: 04/04/2024', 'Total $10.00'),
      ]) {
        expect(confidence(settled, 'InvoiceDate')).toBeGreaterThanOrEqual(0.9);
      }
    });

    it('is high for totals that add up on a text layer, and never certain for a total that does not', async () => {
      const consistent = await read(lines('Invoice No: A-17', 'Subtotal 100.00', 'VAT 20% 20.00', 'Total due 120.00'));
      expect(confidence(consistent, 'InvoiceTotal')).toBeGreaterThanOrEqual(0.9);
      const inconsistent = await read(lines('Invoice No: A-17', 'Subtotal 100.00', 'VAT 20% 20.00', 'Total due 130.00'));
      expect(fields(inconsistent)).toMatchObject({ InvoiceTotal: '130.00' });
      expect(confidence(inconsistent, 'InvoiceTotal')).toBeLessThan(0.9);
    });

    it('does not vouch for a due date before the invoice date', async () => {
      const entities = await read(lines('Invoice date: 20/03/2024', 'Due date: 10/03/2024', 'Total 10.00'));
      expect(fields(entities)).toMatchObject({ InvoiceDate: '2024-03-20', DueDate: '2024-03-10' });
      expect(confidence(entities, 'DueDate')).toBeLessThan(0.9);
    });
  });
});

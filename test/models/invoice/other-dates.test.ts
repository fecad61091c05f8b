/**
 * The issue date among the other dates an invoice prints: a related invoice's, a service period's
 * start and end, the tax point, a stylesheet's version date; and the number and date of a title
 * that names the kind of invoice ("Schlussrechnung Bau (877) Nr. 210113 vom 30.06.2025").
 */
import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


describe('the invoice date among other dates', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`other-dates-${++count}.pdf`), await textPdf([page]));
    return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
  };

  it('is not the date of the invoice it refers to, nor a service period\'s start', async () => {
    const found = await read(
      rows(
        [['Atelier Marchand SARL', 50], ['FACTURE N° : F-2026-031', 330]],
        [['12 rue des Lilas, 69003 Lyon', 50], ['Date : 14/03/2026', 330]],
        'N° DE FACTURE ASSOCIÉE : F-2026-004',
        'DATE DE FACTURE ASSOCIÉE : 02/01/2026',
        'DATE DE DEBUT DE PRESTATION : 01/01/2026',
        [['TOTAL TTC', 330], ['360,00', 450]],
      ),
    );
    expect(found).toMatchObject({ InvoiceDate: '2026-03-14' });
  });

  it('is the date the invoice\'s titled number is "of", not a version\'s printed above it', async () => {
    const found = await read(
      rows(
        'Darstellung 2.6 vom 10.11.2025',
        'Schlussrechnung Bau (877) Nr. 210113 vom 30.06.2025',
        'Hochbau Lindner GmbH, Werkstraße 4, 04109 Leipzig',
        [['Gesamtbetrag', 330], ['1.190,00', 450]],
      ),
    );
    expect(found).toMatchObject({ InvoiceId: '210113', InvoiceDate: '2025-06-30' });
  });

  it('is the issue date, not the tax point, where both are printed; a bilingual label is one label', async () => {
    const found = await read(
      rows(
        'Danovy doklad c. (Invoice No): 2406000590',
        'Datum uskutecneni zdan.plneni (tax point): 2.10.2026',
        'Datum vystavení faktury (invoice date): 3.10.2026',
        [['Celkem k uhrade', 330], ['50 000,00', 450]],
      ),
    );
    expect(found).toMatchObject({ InvoiceDate: '2026-10-03' });
    const english = await read(rows('Harbour Supplies Ltd', 'Invoice No: HS-77', 'Tax point: 28/02/2026', 'Invoice date: 03/03/2026', [['Total due', 330], ['120.00', 450]]));
    expect(english).toMatchObject({ InvoiceDate: '2026-03-03' });
  });

  it('is no delivery or collection date, its label abbreviated ("Delv. Date", "Coll. Date") or not, though no other date is printed', async () => {
    for (const label of ['Delv. Date', 'Dlv. Date', 'Delivery Date', 'Coll. Date']) {
      const pdf = await writeFixture(
        scratch.file(`other-dates-${++count}.pdf`),
        await textPdf([rows('Nexgen Traders Ltd', 'Delivery Note & Invoice No: 3847193', `${label}: 14/03/2026`, 'Due Date: 13/04/2026', [['Total due', 330], ['120.00', 450]])]),
      );
      const date = (await firstPageEntities(invoicesUniversalModel, pdf, 'pdf')).find((e) => e.category === 'InvoiceDate' && !e.notDetected);
      expect(date, label).toBeUndefined();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


describe('a totals row whose labels head its amounts', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`totals-header-${++count}.pdf`), await textPdf([page]));
    return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
  };

  it('reads each amount under its own label, the terms and conditions printed beside them', async () => {
    const found = await read(
      rows(
        [['Atelier Marchand SARL', 50], ['FACTURE N° : F-2026-031', 330]],
        [['12 rue des Lilas, 69003 Lyon', 50], ['Date : 14/03/2026', 330]],
        'Désignation                         Qté     P.U. HT      Montant HT',
        [['Réparation de volets', 50], ['2', 250], ['150,00', 330], ['300,00', 470]],
        [['Conditions de paiement : 30 jours net.', 50], ['TOTAL HT', 300], ['TOTAL TVA', 390], ['TOTAL TTC', 480]],
        'Pénalités de retard : trois fois le taux',
        "d'intérêt légal. Indemnité forfaitaire : 40 €.",
        [['Pas d’escompte pour paiement anticipé.', 50], ['300,00', 300], ['60,00', 390], ['360,00', 480]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '300.00', TotalTax: '60.00', InvoiceTotal: '360.00' });
  });

  it('is not a table\'s header: the first item under "Gesamtpreis", below a group\'s title, is no total', async () => {
    const found = await read(
      rows(
        [['Nordlicht Software GmbH', 50], ['Rechnung 2026/014', 380]],
        [['Pos. Beschreibung', 50], ['Einzelbetrag', 330], ['Gesamtpreis', 450]],
        [['Einführung der Zeiterfassung', 80]],
        [['1', 50], ['Recherche möglicher Systeme', 80], ['90,00 €', 330], ['315,00 €', 450]],
        [['2', 50], ['Präsentation der Ergebnisse', 80], ['90,00 €', 330], ['90,00 €', 450]],
        [['Rechnungsbetrag (netto)', 300], ['405,00 €', 450]],
        [['Umsatzsteuer (19 %)', 300], ['76,95 €', 450]],
        [['Rechnungsendbetrag', 300], ['481,95 €', 450]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '405.00', TotalTax: '76.95', InvoiceTotal: '481.95' });
  });
});

describe('a total\'s label qualified by the tax\'s name', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`tax-qualified-${++count}.pdf`), await textPdf([page]));
    return fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
  };

  it('names the total tax ("Gesamtbetrag Steuer"), not the total; "(VAT incl.)" after a total is still the total', async () => {
    const found = await read(
      rows(
        [['Kramer Elektro GmbH', 50], ['Rechnung', 380]],
        [['Rechnungsnummer: 6063-771', 380]],
        [['Gesamtbetrag Netto:', 300], ['554,55 €', 450]],
        [['Gesamtbetrag Steuer:', 300], ['100,83 €', 450]],
        [['Gesamtbetrag Brutto:', 300], ['655,38 €', 450]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '554.55', TotalTax: '100.83', InvoiceTotal: '655.38' });
    const english = await read(rows('Harbour Supplies Ltd', 'Invoice No: HS-78', [['Total (VAT incl.)', 300], ['120.00', 450]]));
    expect(english).toMatchObject({ InvoiceTotal: '120.00' });
  });
});

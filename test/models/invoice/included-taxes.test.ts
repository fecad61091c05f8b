/**
 * Taxes that are not added to a net: the tax a gross price contains ("enthaltene", "dont", "IVA
 * incluido", a DANFE's ICMS), checked by its rate against the gross and never made into a net;
 * and the taxes a buyer withholds, taken off the total and never the tax.
 */
import { describe, expect, it } from 'vitest';
import { containedAtRate, totalAfterWithholding } from '../../../src/models/fields/included-taxes.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import type { Entity } from '../../../src/domain/entities.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

describe('the checks of included and withheld taxes', () => {
  it('finds the tax a gross contains at a printed rate, to the cent, and nothing at another rate', () => {
    expect(containedAtRate(1900, 11900, [19])).toBe(true);
    expect(containedAtRate(350, 2100, [20])).toBe(true);
    expect(containedAtRate(350, 2100, [19])).toBe(false);
    expect(containedAtRate(0, 2100, [20])).toBe(false);
  });

  it('takes a withheld tax off the net and the tax, whatever sign it is printed with', () => {
    expect(totalAfterWithholding(100000, 16000, 105333, [10667])).toBe(true);
    expect(totalAfterWithholding(100000, 21000, 106000, [-15000])).toBe(true);
    expect(totalAfterWithholding(100000, 16000, 116000, [10667])).toBe(false);
  });
});

describe('taxes included in the price', () => {
  const scratch = useScratchDir();
  let count = 0;
  const entities = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`included-${++count}.pdf`), await textPdf([page]));
    return firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  it('a premium that contains its insurance tax: the premium is the total, the tax in brackets is positive, no net is made, an earlier claim is not added', async () => {
    const found = await entities(
      rows(
        'Nordlicht Versicherung AG',
        'Beitragsrechnung zur Hausratversicherung Nr. 44.812.300.1',
        'Rechnungsdatum: 02.02.2025',
        [['Hausrat Grunddeckung', 50], ['95,00 €', 460]],
        [['Glasbruch', 50], ['24,00 €', 460]],
        [['halbjährlicher Beitrag inklusive 19 % Versicherungsteuer', 50], ['119,00 €', 460]],
        [['darin enthaltene Versicherungsteuer', 50], ['(19,00 €)', 460]],
        [['Ausstehende Forderung aus dem Vorjahr', 50], ['119,00 €', 460]],
        [['zu zahlender Beitrag', 50], ['238,00 €', 460]],
      ),
    );
    const read = fields(found);
    expect(read).toMatchObject({ InvoiceTotal: '119.00', TotalTax: '19.00' });
    expect(read.SubTotal).toBeUndefined();
    // The rate printed with the gross checks the tax it contains.
    expect(confidence(found, 'TotalTax')).toBeGreaterThanOrEqual(0.9);
  });

  it('"dont TVA", "IVA incluido", "davon MwSt.": the tax a total contains, no net made of it', async () => {
    const frenchPage = await entities(rows('Boulangerie du Marché', 'Facture n° 2025-0412', [['Total TTC', 50], ['21,00 €', 400]], [['dont TVA 20 %', 50], ['3,50 €', 400]]));
    const french = fields(frenchPage);
    expect(french).toMatchObject({ InvoiceTotal: '21.00', TotalTax: '3.50' });
    expect(french.SubTotal).toBeUndefined();
    // 21,00 at 20 % contains 3,50: the rate checks the tax and the total against each other.
    expect(confidence(frenchPage, 'TotalTax')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(frenchPage, 'InvoiceTotal')).toBeGreaterThanOrEqual(0.9);
    const spanish = fields(await entities(rows('Cafetería La Plaza S.L.', 'Factura Nº 118/2025', [['Total', 50], ['12,10 €', 400]], [['IVA 10% incluido', 50], ['1,10 €', 400]])));
    expect(spanish).toMatchObject({ InvoiceTotal: '12.10', TotalTax: '1.10' });
    const german = fields(await entities(rows('Buchhandlung Lesezeichen', 'Rechnung Nr. 5531', [['Gesamtbetrag', 50], ['21,40 €', 400]], [['davon MwSt. 7 %', 50], ['1,40 €', 400]])));
    expect(german).toMatchObject({ InvoiceTotal: '21.40', TotalTax: '1.40' });
  });

  it('a DANFE-like grid: the included ICMS under its label, not the base in the cell before it; an ICMS of 0,00 is no tax', async () => {
    const grid = (base: string, icms: string) =>
      rows(
        'Comercio Exemplo Ltda',
        [['NF-e Nº 000.001.234', 50]],
        [['BASE DE CÁLCULO DO ICMS', 40], ['VALOR DO ICMS', 190], ['VALOR TOTAL DA NOTA', 360]],
        [[base, 130], [icms, 290], ['2.500,00', 470]],
      );
    const taxed = fields(await entities(grid('1.250,00', '225,00')));
    expect(taxed).toMatchObject({ InvoiceTotal: '2500.00', TotalTax: '225.00' });
    expect(taxed.SubTotal).toBeUndefined();
    const none = fields(await entities(grid('0,00', '0,00')));
    expect(none).toMatchObject({ InvoiceTotal: '2500.00' });
    expect(none.TotalTax).toBeUndefined();
  });

  it('a net in a row with an original amount and its discount is the bill\'s amount after discount, not a net before tax', async () => {
    const read = fields(
      await entities(
        rows(
          'Comercio Exemplo Ltda',
          [['NÚMERO', 40], ['VALOR ORIGINAL', 160], ['VALOR DO DESCONTO', 300], ['VALOR LÍQUIDO', 440]],
          [['7731', 40], ['1.480,00', 220], ['0,00', 360], ['1.480,00', 500]],
          [['VALOR TOTAL DA NOTA', 360]],
          [['1.480,00', 470]],
        ),
      ),
    );
    expect(read).toMatchObject({ InvoiceTotal: '1480.00' });
    expect(read.SubTotal).toBeUndefined();
  });
});

describe('taxes withheld', () => {
  const scratch = useScratchDir();
  let count = 0;
  const entities = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`withheld-${++count}.pdf`), await textPdf([page]));
    return firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };
  const read = async (page: Placed[]) => fields(await entities(page));

  it('a printed CFDI: the total after the withheld taxes, the taxes carried over as the tax (label over two lines)', async () => {
    const found = await read(
      rows(
        'EMISOR',
        [['NOMBRE:', 50], ['SERVICIOS DEMO DEL NORTE SC', 120]],
        [['FOLIO:', 50], ['88XYZ', 120]],
        [['SUBTOTAL:', 360], ['$1,000.00', 480]],
        [['TOTAL IMP.', 360], ['$160.00', 480]],
        [['TRASLADADOS:', 360]],
        [['TOTAL IMP. RETENIDOS:', 360], ['$106.67', 480]],
        [['TOTAL:', 360], ['$1,053.33', 480]],
      ),
    );
    expect(found).toMatchObject({ SubTotal: '1000.00', TotalTax: '160.00', InvoiceTotal: '1053.33' });
  });

  it('a Spanish invoice with IRPF withheld: the total after it, the VAT as the tax', async () => {
    const page = await entities(
      rows(
        'Estudio Gráfico Marina López',
        'Factura Nº 2025/031',
        [['Base imponible', 50], ['1.000,00 €', 400]],
        [['IVA 21%', 50], ['210,00 €', 400]],
        [['Retención IRPF 15%', 50], ['150,00 €', 400]],
        [['Total factura', 50], ['1.060,00 €', 400]],
      ),
    );
    expect(fields(page)).toMatchObject({ SubTotal: '1000.00', TotalTax: '210.00', InvoiceTotal: '1060.00' });
    // Net, tax and withholding add up to the total: a check passed, not one failed.
    expect(confidence(page, 'InvoiceTotal')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(page, 'SubTotal')).toBeGreaterThanOrEqual(0.9);
  });
});

/**
 * Forms whose values sit each in a cell under a small label (Brazilian fiscal prints, ERP header
 * boxes), and sellers' tax ids that are no EU VAT number (a CNPJ, an RFC): national-tax-ids.ts,
 * grid-cells.ts, invoice-fields.ts, fiscal-print-labels.ts.
 */
import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

/** A grid row: texts at their x, all at y. */
const row = (y: number, ...cells: Array<[string, number]>): Placed[] => cells.map(([text, x]) => ({ text, x, y, size: 8 }));

function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

/** A Brazilian note's grid: the seller's block, then the note's number, date and total each under its label. */
const note = (cnpj: string): Placed[] => [
  { text: 'DOCUMENTO AUXILIAR DA NOTA FISCAL', x: 50, y: 40, size: 12 },
  ...row(70, ['EMITENTE', 50]),
  ...row(82, ['NOME / RAZÃO SOCIAL', 50], ['MUNICÍPIO', 300], ['CNPJ / CPF', 430]),
  ...row(92, ['Comercial Exemplo Ltda', 50], ['Campinas', 300], [cnpj, 430]),
  ...row(120, ['NÚMERO DA NOTA', 50], ['SÉRIE', 180], ['DATA DE EMISSÃO', 300], ['VALOR TOTAL DA NOTA', 430]),
  ...row(130, ['4711', 50], ['1', 180], ['05/03/2024', 300], ['1.234,50', 430]),
];

describe('values under their labels in a grid', () => {
  const scratch = useScratchDir();
  let count = 0;
  const entities = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`grid-${++count}.pdf`), await textPdf([page]));
    return await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  it('reads the number, the date, the total and the seller from the cells under their labels', async () => {
    const found = fields(await entities(note('11.444.777/0001-61')));
    expect(found).toMatchObject({ InvoiceId: '4711', InvoiceDate: '2024-03-05', InvoiceTotal: '1234.50', VendorName: 'Comercial Exemplo Ltda' });
  });

  it('reads a CNPJ whole under "CNPJ / CPF", sure when its check digits hold and not when they fail', async () => {
    const valid = await entities(note('11.444.777/0001-61'));
    expect(fields(valid).VendorTaxId).toBe('11444777000161');
    expect(confidence(valid, 'VendorTaxId')).toBeGreaterThanOrEqual(0.9);
    const wrong = await entities(note('11.444.777/0001-62'));
    expect(fields(wrong).VendorTaxId).toBe('11444777000162');
    expect(confidence(wrong, 'VendorTaxId')).toBeLessThan(0.9);
  });

  it('takes a label\'s fragment for no value: "/ RAZÃO SOCIAL" split off its line is no seller\'s name', async () => {
    const found = fields(
      await entities([
        { text: 'DOCUMENTO AUXILIAR DA NOTA FISCAL', x: 50, y: 40, size: 12 },
        ...row(70, ['EMITENTE', 50]),
        ...row(82, ['NOME', 50], ['/ RAZÃO SOCIAL', 250]),
        ...row(92, ['Comercial Exemplo Ltda', 50]),
        ...row(120, ['NÚMERO DA NOTA', 50], ['VALOR TOTAL DA NOTA', 300]),
        ...row(130, ['4711', 50], ['1.234,50', 300]),
      ]),
    );
    expect(found.VendorName).toBe('Comercial Exemplo Ltda');
  });

  it('in an ERP\'s header box: a cell under its label is as sure as a value beside its label, a bare "Date" elsewhere no rival', async () => {
    const footer = { text: 'Date: 01/03/2024', x: 50, y: 300, size: 8 };
    const header = (...cells: Placed[]) => [{ text: 'Northwind Supplies Ltd', x: 50, y: 40, size: 14 }, ...cells, { text: 'Total due: 250.00 EUR', x: 380, y: 200 }, footer];
    const grid = await entities(header(...row(80, ['Invoice number', 50], ['Invoice date', 200], ['Customer', 350]), ...row(90, ['INV-1001', 50], ['05/03/2024', 200], ['Acme Retail GmbH', 350])));
    const beside = await entities(header(...row(80, ['Invoice number', 50], ['INV-1001', 130]), ...row(92, ['Invoice date', 50], ['05/03/2024', 130])));
    expect(fields(grid)).toMatchObject({ InvoiceId: 'INV-1001', InvoiceDate: '2024-03-05' });
    expect(fields(beside)).toMatchObject({ InvoiceId: 'INV-1001', InvoiceDate: '2024-03-05' });
    expect(confidence(grid, 'InvoiceDate')).toBeGreaterThanOrEqual(0.9);
    expect(confidence(beside, 'InvoiceDate')).toBeGreaterThanOrEqual(0.9);
  });
});

describe('a heading that names both parties', () => {
  /** Words of a text layer, 8 high, set one after another from x. */
  const words = (text: string, x: number, top: number): PageWord[] => {
    let left = x;
    return text.split(' ').map((word) => {
      const placed = { text: word, box: { left, top, width: word.length * 4.5, height: 8 }, confidence: 1 };
      left += word.length * 4.5 + 2.5;
      return placed;
    });
  };

  it('("DESTINATÁRIO / REMETENTE", the other party whichever way the goods go) names neither party: neither it nor its name row gives a seller', () => {
    const page = buildPageText([
      ...words('DESTINATÁRIO / REMETENTE', 50, 70),
      ...words('NOME / RAZÃO SOCIAL', 50, 82),
      ...words('CNPJ / CPF', 300, 82),
      ...words('Cliente Modelo SA', 50, 92),
      ...words('529.982.247-25', 300, 92),
    ]);
    const { candidates } = findPageCandidates(page, { dates: { monthFirst: false }, portuguese: false, itemTables: [] });
    expect(candidates.filter((c) => c.category === 'VendorName' && c.contentNormalized.includes('Cliente Modelo'))).toEqual([]);
    // Under the seller's own heading the same row names the seller.
    const seller = buildPageText([...words('EMITENTE', 50, 70), ...words('NOME / RAZÃO SOCIAL', 50, 82), ...words('CNPJ / CPF', 300, 82), ...words('Comercial Exemplo Ltda', 50, 92), ...words('529.982.247-25', 300, 92)]);
    const own = findPageCandidates(seller, { dates: { monthFirst: false }, portuguese: false, itemTables: [] }).candidates;
    expect(own.filter((c) => c.category === 'VendorName').map((c) => c.contentNormalized)).toContain('Comercial Exemplo Ltda');
  });
});

describe('a Mexican RFC', () => {
  const scratch = useScratchDir();
  it('is the seller\'s tax id after "RFC:" in the issuer\'s block, the receiver\'s in its own', async () => {
    const page: Placed[] = [
      { text: 'FOLIO: 167XYZ', x: 380, y: 40 },
      { text: 'FECHA: 2024-03-05', x: 380, y: 54 },
      { text: 'EMISOR', x: 50, y: 90 },
      { text: 'NOMBRE: SERVICIOS EJEMPLO SA DE CV', x: 50, y: 104 },
      { text: 'RFC: SEJ010101AB1', x: 400, y: 104 },
      { text: 'RECEPTOR', x: 50, y: 140 },
      { text: 'NOMBRE: JUAN PEREZ LOPEZ', x: 50, y: 154 },
      { text: 'RFC: PELJ800113AB2', x: 400, y: 154 },
      { text: 'TOTAL: $1,160.00', x: 380, y: 220 },
    ];
    const pdf = await writeFixture(scratch.file('rfc.pdf'), await textPdf([page]));
    const found = fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    expect(found).toMatchObject({ VendorTaxId: 'SEJ010101AB1', InvoiceId: '167XYZ' });
  });
});

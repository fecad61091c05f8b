import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { findTaxId } from '../../../src/models/fields/identifiers.js';
import { findAmounts } from '../../../src/models/fields/normalize.js';
import { nationalCheckDigits } from '../../../src/models/fields/national-tax-ids.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, type Placed, rows, textPdf, writeFixture } from '../document-fixtures.js';


function confidence(entities: readonly Entity[], category: string): number | undefined {
  return entities.find((e) => e.type === 'Field' && e.category === category && !e.notDetected)?.confidence;
}

describe('a quantity with its unit is no amount', () => {
  it('drops numbers a unit of measure follows, in any language, and keeps money and a receipt\'s tax code', () => {
    for (const text of ['Total Consumption 492 m3', 'Verbrauch 1,234 kWh', 'Gewicht 12 kg', 'Volume 3.5 L', 'Billing period 30 days', 'Durée 12 mois', '2 Stück']) {
      expect(findAmounts(text), text).toEqual([]);
    }
    expect(findAmounts('241.5800 kWh Off Peak at 15.70').map((a) => a.value)).toEqual(['15.70']);
    // A tax code after an amount ("4.99 T") and a currency after it stay amounts.
    expect(findAmounts('Milk 4.99 T').map((a) => a.value)).toEqual(['4.99']);
    expect(findAmounts('Total 12.50 EUR').map((a) => a.value)).toEqual(['12.50']);
  });
});

describe('Canadian business numbers', () => {
  it('reads the number whole with its program account, its nine digits grouped or not', () => {
    expect(findTaxId('HST # 12345 6782 RT0001', false)?.normalized).toBe('123456782RT0001');
    expect(findTaxId('GST/HST No. 123 456 782 RT 0001', false)?.normalized).toBe('123456782RT0001');
    expect(findTaxId('784123655 RT0001', false)?.normalized).toBe('784123655RT0001');
  });

  it('checks the Luhn digit of the nine digits', () => {
    expect(nationalCheckDigits('123456782RT0001')).toBe(true);
    expect(nationalCheckDigits('12345 6782 RT0001')).toBe(true);
    expect(nationalCheckDigits('123456783RT0001')).toBe(false);
    expect(nationalCheckDigits('223456782RT0001')).toBe(false);
  });
});

/** Bills and statements of utilities, telecoms and insurers: their total, tax, tax id and issuer. */
describe('bills and statements', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`bill-${++count}.pdf`), await textPdf([page]));
    return firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  const bill = (taxId: string) =>
    rows(
      'NORTHWIND POWER CORP',
      '12 Harbour Road',
      'HALIFAX, NOVA SCOTIA',
      [['TAX REGISTRATION:', 50], [taxId, 200]],
      [['BILLING DATE', 50], ['MAR 22 2024', 200]],
      [['Previous Balance', 50], ['88.20', 450]],
      'Bill',
      [['Payments Received - Thank You', 50], ['88.20CR', 450]],
      [['Balance Forward', 50], ['.00', 450]],
      [['Total Consumption', 50], ['1,234', 300], ['kWh', 350]],
      'YOUR ELECTRICITY CHARGES',
      [['Electricity', 50], ['96.40', 450]],
      [['Harmonized Sales Tax on', 50], ['$96.40', 200], ['at', 260], ['15.00%', 300], ['14.46', 450]],
      [['New Charges This Bill', 50], ['110.86', 450]],
    );

  it('the current charges are the total, the tax line\'s base the net, its last amount the tax; no previous payment is an id', async () => {
    const entities = await read(bill('12345 6782 RT0001'));
    const found = fields(entities);
    expect(found).toMatchObject({ InvoiceTotal: '110.86', TotalTax: '14.46', SubTotal: '96.40', VendorTaxId: '123456782RT0001' });
    expect(found.InvoiceId ?? null).toBeNull();
    // A section heading addressed to the reader is no issuer; the province line is an address's end.
    expect(found.VendorName).toBe('NORTHWIND POWER CORP');
    // The business number's check digit and its label agree: sure.
    expect(confidence(entities, 'VendorTaxId')).toBeGreaterThanOrEqual(0.9);
  });

  it('with a balance carried forward, the amount due is not the bill\'s total: its current charges are', async () => {
    const found = fields(
      await read(
        rows(
          'Bluewave Mobile Inc.',
          'Amount Due: $140.01',
          [['Statement Date', 50], ['2024-05-02', 300]],
          [['Previous Balance', 50], ['74.24', 450]],
          [['Payment Received - Thank You', 50], ['-0.00', 450]],
          [['Balance Forward', 50], ['74.24', 450]],
          [['Monthly plan', 50], ['58.20', 450]],
          [['GST/HST 13%', 50], ['7.57', 450]],
          [['Total Current Charges', 50], ['65.77', 450]],
        ),
      ),
    );
    expect(found).toMatchObject({ InvoiceTotal: '65.77', TotalTax: '7.57' });
  });

  it('a business number whose check digit fails stays below 0.9', async () => {
    const entities = await read(bill('12345 6783 RT0001'));
    expect(fields(entities).VendorTaxId).toBe('123456783RT0001');
    expect(confidence(entities, 'VendorTaxId')).toBeLessThan(0.9);
  });

  it('a consumption in its own cell, a house number after a total\'s label are no total; a direct debit\'s amount is', async () => {
    const quantity = fields(await read(rows('Stadtwerke Musterstadt GmbH', [['Total Consumption', 50], ['492', 300], ['m3', 340]], [['Total Water Charges for 152 Main St', 50], ['46.41', 450]])));
    expect(quantity.InvoiceTotal).toBe('46.41');
    const debit = fields(await read(rows('Riverside Water Utility', [['Pre-authorized Withdrawal:', 300], ['200.01', 450]], [['Total Consumption', 50], ['492', 300], ['m3', 340]])));
    expect(debit.InvoiceTotal).toBe('200.01');
    // A whole number a currency's name follows is money still.
    expect(fields(await read(rows('Acme Consulting Ltd', 'Total 500 Euro'))).InvoiceTotal).toBe('500');
    // So is one that says what tax it holds or lacks ("HT", "TTC", "inkl. MwSt.", "incl. VAT").
    for (const total of ['Total 120 TTC', 'Gesamtbetrag 120 inkl. MwSt.', 'Total 120 incl. VAT']) {
      expect(fields(await read(rows('Atelier Durand SARL', total))).InvoiceTotal, total).toBe('120');
    }
  });

  it('a section heading and a town with its province name no issuer', async () => {
    const found = fields(await read(rows([['ACCOUNT NUMBER', 300], ['R3902 700 081', 450]], 'HALIFAX, NOVA SCOTIA', 'SUMMARY OF CHARGES', 'YOUR ELECTRICITY CHARGES', [['Electricity', 50], ['96.40', 450]], [['Delivery', 50], ['24.84', 450]])));
    expect(found.VendorName ?? '').not.toMatch(/CHARGES|Electricity|NOVA SCOTIA|HALIFAX/i);
    // A name that holds such a word, not set as a heading in capitals, is still a name.
    const named = fields(await read(rows('Northwind Information Services', '12 Harbour Road', 'Halifax NS B3H 1A1', 'Tel: 902-555-0142 billing@northwind.ca', [['Invoice No.', 50], ['NW-1042', 200]], [['Total', 50], ['96.40', 450]])));
    expect(named.VendorName).toBe('Northwind Information Services');
  });

  it('the issuer under a provider label, beside its web address and telephone number', async () => {
    const found = fields(await read(rows([['CUSTOMER NAME', 50], ['ACCOUNT NUMBER', 300]], [['JANE DOE', 50], ['R3902 700 081', 300]], 'ENERGY SERVICE PROVIDER', 'http://www.northwind.example NORTHWIND POWER CORP (902) 555-0142', 'YOUR ELECTRICITY CHARGES', [['Electricity', 50], ['96.40', 450]])));
    expect(found.VendorName).toBe('NORTHWIND POWER CORP');
  });
});

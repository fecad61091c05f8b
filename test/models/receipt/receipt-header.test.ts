import { describe, expect, it } from 'vitest';
import { findPageCandidates } from '../../../src/models/invoice/invoice-fields.js';
import { dateOptionsFor } from '../../../src/models/fields/normalize.js';
import { receiptCandidates } from '../../../src/models/receipt/receipt-fields.js';
import { ocrReceipt, type Row } from './ocr-receipt.js';

/** The shop's name and address the header offers (its confirmations aside). */
function header(rows: readonly Row[]) {
  const text = ocrReceipt(rows);
  const { hits } = findPageCandidates(text, { dates: dateOptionsFor(undefined), portuguese: false, itemTables: [] });
  const offered = receiptCandidates(text, hits).filter((c) => !c.confirms);
  return Object.fromEntries(offered.map((c) => [c.category, c.contentNormalized]));
}

describe('the header of receipts of other countries', () => {
  it('reads street lines printed without a number as the address, in the languages of the receipts', () => {
    expect(header(['BOULANGERIE DUPONT', 'CHEMIN DES VIGNES', 'ZONE ARTISANALE', '84000 AVIGNON', 'TEL 04 90 12 34 56', 'TICKET'])).toMatchObject({
      VendorName: 'BOULANGERIE DUPONT',
      VendorAddress: 'CHEMIN DES VIGNES ZONE ARTISANALE 84000 AVIGNON',
    });
    expect(header(['CAFETERIA LUNA', 'CALLE MAYOR', 'ESQUINA PLAZA', '28013 MADRID', 'TEL 91 123 45 67'])).toMatchObject({
      VendorName: 'CAFETERIA LUNA',
      VendorAddress: 'CALLE MAYOR ESQUINA PLAZA 28013 MADRID',
    });
  });
});

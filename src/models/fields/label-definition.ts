/** The shape of a label of the invoice vocabularies (invoice-labels.ts, eu-invoice-labels.ts). */
import type { InvoiceField } from './invoice-field-names.js';

/**
 * What a label announces: a field, a tax number whose owner its place tells (TaxId), a tax
 * office's or register's number that is no VAT id and stands for the vendor's tax number only
 * when no VAT id is printed (TaxRegistration), one of several tax lines (TaxLine), a name row in a
 * party's block whose heading tells whose it is (PartyName), the receipt's payment lines
 * (Tendered, Change, Rounding), a tax the buyer withholds from the amount it pays (Withheld: it
 * checks the total, it is never the invoice's tax), or a label that only looks like a field's and
 * announces something else (Other: "Total qty").
 */
export type LabelCategory = InvoiceField | 'PartyName' | 'TaxId' | 'TaxRegistration' | 'TaxLine' | 'Withheld' | 'Tendered' | 'Change' | 'Rounding' | 'Other';

export interface LabelDefinition {
  category: LabelCategory;
  source: string;
  /** 0..1: how surely the label names this field. */
  strength: number;
  /** A label that names either of two fields by custom ("Net total": before tax in Europe, the final total on Asian receipts). */
  orAs?: LabelCategory;
  /** How surely it names the other field, as a share of `strength` (1 when unset). */
  orAsShare?: number;
  /** What is due or debited, which a statement's balance carried forward makes more than the bill's own charges ("Amount Due"). */
  due?: boolean;
  /** A statement's balance carried forward from earlier bills ("Balance Forward"), which is part of what is due. */
  carried?: boolean;
  /**
   * A tax the price already contains ("enthaltene MwSt", "dont TVA", "IVA incluido"): it is part of
   * the total, not added to a net (included-taxes.ts).
   */
  included?: boolean;
}

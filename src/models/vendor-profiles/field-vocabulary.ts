/**
 * The labels of a field's own vocabulary (invoice-labels.ts) as a vendor profile sees them: what
 * a review anchors a corrected value beside ("Sous-total" for a subtotal, not "5,00% sur"), and,
 * where the label a review learned is absent from a later page, which of the page's labels may
 * stand in for it ("N° TVA :" where the reviewed invoice printed "N° TVA intra :").
 */
import type { InvoiceField } from '../fields/invoice-field-names.js';
import { INVOICE_LABELS, type LabelCategory } from '../fields/invoice-labels.js';
import { plainWithOffsets } from '../fields/normalize.js';

/** The label categories that may announce each field (a tax number's owner is told by its place, a total tax by its tax lines). */
const LABEL_CATEGORIES: Partial<Record<InvoiceField, readonly LabelCategory[]>> = {
  VendorTaxId: ['VendorTaxId', 'TaxId'],
  CustomerTaxId: ['CustomerTaxId', 'TaxId'],
  TotalTax: ['TotalTax', 'TaxLine'],
};
const fieldLabels = new Map<InvoiceField, RegExp[]>();

function patternsOf(field: InvoiceField): RegExp[] {
  if (!fieldLabels.has(field)) {
    const categories = LABEL_CATEGORIES[field] ?? [field];
    const sources = INVOICE_LABELS.filter((d) => categories.includes(d.category) || (d.orAs !== undefined && categories.includes(d.orAs))).map((d) => d.source);
    // The label itself is the group "label" (d: its indices), after a start of text or a character no letter or digit.
    fieldLabels.set(field, sources.map((source) => new RegExp(`(?:^|[^\\p{L}\\p{N}])(?<label>${source})(?![\\p{L}])`, 'dgu')));
  }
  return fieldLabels.get(field)!;
}

/** A label of the field's own vocabulary is printed in the text. */
export function namesField(field: InvoiceField, text: string): boolean {
  return fieldLabelsIn(field, text).length > 0;
}

/** Where the text prints labels of the field's own vocabulary, as ranges of the text; the longest at each start. */
export function fieldLabelsIn(field: InvoiceField, text: string): Array<{ start: number; end: number }> {
  const { plain, offsets } = plainWithOffsets(text);
  const found = new Map<number, number>();
  for (const pattern of patternsOf(field)) {
    pattern.lastIndex = 0;
    for (const match of plain.matchAll(pattern)) {
      const [from, to] = match.indices!.groups!.label!;
      if (to <= from) continue;
      const start = offsets[from]!;
      const end = offsets[to - 1]! + 1;
      if ((found.get(start) ?? -1) < end) found.set(start, end);
    }
  }
  return [...found].map(([start, end]) => ({ start, end })).sort((a, b) => a.start - b.start);
}

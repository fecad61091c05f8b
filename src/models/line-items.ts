import type { LayoutTable } from './tables.js';

/** Column headers of invoice and receipt item tables, in the five languages of the OCR. */
const COLUMNS: ReadonlyArray<readonly [name: string, header: RegExp]> = [
  ['Description', /^(?:description|item|items|product|service|article|designa[cç][aã]o|descri[cç][aã]o|artigo|produto|d[ée]signation|libell[ée]|bezeichnung|beschreibung|artikel|descripci[oó]n|concepto|art[ií]culo)$/],
  ['Quantity', /^(?:qty|quantity|qtd|qt|quant|quantidade|quantit[ée]|qt[ée]|menge|anzahl|cantidad|cant|units?)$/],
  ['UnitPrice', /^(?:unit\s*price|price|rate|unit\s*cost|pre[cç]o(?:\s*unit[aá]rio)?|p\.?\s*unit\.?|prix(?:\s*unitaire)?|einzelpreis|preis|precio(?:\s*unitario)?)$/],
  ['TaxRate', /^(?:vat|tax|iva|tva|mwst|taxa|tax\s*rate|vat\s*%|iva\s*%|%\s*iva)$/],
  ['Discount', /^(?:disc\.?|discount|desc\.?|desconto|remise|rabatt|descuento)$/],
  ['ProductCode', /^(?:code|sku|ref\.?|reference|refer[eê]ncia|c[oó]digo|art\.?\s*nr\.?)$/],
  ['Amount', /^(?:amount|total|line\s*total|valor|montante|importe|montant|betrag|gesamt|subtotal|net)$/],
];

/** The line-item name of a column header ("Qtd." -> Quantity), undefined for other headers. */
export function lineItemColumn(header: string): string | undefined {
  const key = header.toLowerCase().replace(/[.:()]/g, '').replace(/\s+/g, ' ').trim();
  return COLUMNS.find(([, pattern]) => pattern.test(key))?.[0];
}

/** A table of items: a description column and a quantity, price or amount column. */
export function isLineItemTable(table: LayoutTable): boolean {
  const names = new Set((table.rows[0] ?? []).map((cell) => cell && lineItemColumn(cell.text)));
  return names.has('Description') && ['Quantity', 'UnitPrice', 'Amount'].some((name) => names.has(name));
}

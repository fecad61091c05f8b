import type { LayoutTable } from '../page/text/tables.js';

/** Column headers of invoice and receipt item tables, in the languages of the invoices we read. */
const COLUMNS: ReadonlyArray<readonly [name: string, header: RegExp]> = [
  ['Description', /^(?:description|item|items|item description|product|products|service|services|particulars|article|details|designa[cç][aã]o|descri[cç][aã]o|artigo|produto|d[ée]signation|libell[ée]|bezeichnung|beschreibung|leistung|artikel|omschrijving|beschrijving|descrizione|articolo|prodotto|descripci[oó]n|concepto|art[ií]culo)$/],
  ['Quantity', /^(?:qty|quantity|qtd|qt|quant|quantidade|quantit[ée]|qt[ée]|menge|anzahl|aantal|aant|quantit[aà]|q\.?t[aà]|qtà|cantidad|cant|uds|units?|hrs|hours|std)$/],
  ['UnitPrice', /^(?:unit\s*price|price|rate|unit\s*cost|pre[cç]o(?:\s*unit[aá]rio|\s*unit)?|p\.?\s*unit\.?(?:\s*ht)?|prix(?:\s*unitaire|\s*u)?|einzelpreis|e-preis|preis|prijs|stukprijs|tarief|prezzo(?:\s*unitario|\s*un)?|precio(?:\s*unitario)?|p\.?\s*u\.?(?:\s*ht)?)$/],
  ['TaxRate', /^(?:vat|tax|iva|tva|mwst|btw|gst|taxa|tax\s*rate|vat\s*%|iva\s*%|%\s*iva)$/],
  ['Discount', /^(?:disc\.?|discount|desc\.?|desconto|remise|rabatt|korting|sconto|descuento)$/],
  ['ProductCode', /^(?:code|sku|ref\.?|reference|refer[eê]ncia|c[oó]digo|codice|art\.?\s*nr\.?|hsn(?:\/sac)?|sac)$/],
  ['Amount', /^(?:amount|total|line\s*total|valor|montante|importe|montant(?:\s*ht)?|total\s*ht|betrag|gesamt|summe|bedrag|totaal|importo|totale|subtotal|net)$/],
];

/** The line-item name of a column header ("Qtd." -> Quantity), undefined for other headers. */
export function lineItemColumn(header: string): string | undefined {
  // "Amount (EUR)" is the Amount column: a currency or unit in brackets does not name the column.
  const key = header.toLowerCase().replace(/\s*\([^)]*\)\s*$/, '').replace(/[.:()]/g, '').replace(/\s+/g, ' ').trim();
  return COLUMNS.find(([, pattern]) => pattern.test(key))?.[0];
}

/** A table of items: a description column and a quantity, price or amount column. */
export function isLineItemTable(table: LayoutTable): boolean {
  const names = new Set((table.rows[0] ?? []).map((cell) => cell && lineItemColumn(cell.text)));
  return names.has('Description') && ['Quantity', 'UnitPrice', 'Amount'].some((name) => names.has(name));
}

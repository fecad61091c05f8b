/**
 * The labels and lines of a page that name no invoice field: the rows of an item table (but for
 * the totals rows that close it), and labels whose place in their line shows them to be words of
 * something else.
 */
import { findIbans } from '../fields/identifiers.js';
import type { LabelCategory } from '../fields/invoice-labels.js';
import type { LabelHit } from '../fields/label-hits.js';
import { overlap } from '../page/text/geometry.js';
import type { LayoutTable } from '../page/text/tables.js';
import type { PageText, TextLine } from '../page/text/text-lines.js';
import { plain } from '../fields/normalize.js';

/** Labels that close an item table with its totals ("Subtotal 100.00" under the last item). */
const TOTALS_CATEGORIES: ReadonlySet<LabelCategory> = new Set(['SubTotal', 'TotalTax', 'TaxLine', 'Withheld', 'InvoiceTotal', 'Tendered', 'Change', 'Rounding', 'Currency']);

/**
 * The lines of the item rows of the tables, without the totals rows that close them: rows whose
 * first line starts with a totals label ("Subtotal"), not a header row with a "Total" column.
 */
export function itemRowLines(tables: readonly LayoutTable[], hits: readonly LabelHit[]): Set<TextLine> {
  const totalsLines = new Set(hits.filter((h) => TOTALS_CATEGORIES.has(h.definition.category) && h.start === 0).map((h) => h.line));
  const excluded = new Set<TextLine>();
  for (const table of tables) {
    const byRow = new Map<number, TextLine[]>();
    for (const line of table.lines) byRow.set(line.row, [...(byRow.get(line.row) ?? []), line]);
    const headerRow = Math.min(...byRow.keys());
    for (const [row, lines] of byRow) {
      const first = lines.reduce((a, b) => (b.layoutBox.left < a.layoutBox.left ? b : a));
      if (row !== headerRow && totalsLines.has(first)) continue;
      for (const line of lines) excluded.add(line);
    }
  }
  return excluded;
}

/** Labels of a tax amount: the total tax, or one tax line of several. */
export const TAX_CATEGORIES: ReadonlySet<LabelCategory> = new Set(['TotalTax', 'TaxLine']);

/**
 * Whether a label's place in its line shows it to name no field: a tax word qualifying an amount's
 * label, a number in brackets, a tax named inside a sentence, a party's word naming the holder of
 * an IBAN's account, an IBAN the amount is debited from.
 */
export function namesNoField(page: PageText, h: LabelHit): boolean {
  // A tax word that qualifies an amount's label ("Subtotaal (excl. btw)", "Zwischensumme (ohne
  // USt.)") labels no tax number, nor a tax.
  const qualifier = (h: LabelHit) => (h.definition.category === 'TaxId' || TAX_CATEGORIES.has(h.definition.category)) && h.start > 0 && TAX_QUALIFIER.test(h.line.text.slice(0, h.start));
  // A number named in brackets inside a line refers to another paper ("... reports (Ticket #NFR-2241)").
  const aside = (h: LabelHit) => h.definition.category === 'InvoiceId' && h.start > 0 && /\(\s*$/.test(h.line.text.slice(0, h.start));
  // A tax's name inside a sentence ("Order and review UCC, tax lien and judgment searches 0.9"),
  // words following it that name no base ("on", "auf"): no tax line.
  const inSentence = (h: LabelHit) =>
    h.definition.category === 'TaxLine' && h.start > 0 && /^\s*\p{Ll}{2,}/u.test(h.line.text.slice(h.valueStart)) && !/^\s*(?:on|auf|sur|su|sobre|over|of)\b/i.test(h.line.text.slice(h.valueStart));
  // A party's word beside, under or over an IBAN names the account's holder, the payee ("IBAN
  // IT70... / Intestatario: Ferretti S.r.l.").
  const accountHolder = (h: LabelHit) => h.definition.category === 'CustomerName' && besideAnIban(page, h.line);
  // The tax's name after a Swiss UID is the VAT number's suffix ("CHE-112.203.184 MWST"), no label.
  const uidSuffix = (h: LabelHit) => h.start > 0 && /CHE[-\s]?\d{3}[.\s]?\d{3}[.\s]?\d{3}\s?$/.test(h.line.text.slice(0, h.start));
  // An account the amount is debited from is the payer's, not the one to pay into.
  const payersAccount = (h: LabelHit) => h.definition.category === 'IBAN' && debitsTheAccount(h.line.text);
  return qualifier(h) || aside(h) || accountHolder(h) || inSentence(h) || uidSuffix(h) || payersAccount(h) || afterDiscount(page, h);
}

// The verbs of taking an amount from an account, not the nouns a seller's footer lists among the
// ways to pay ("Überweisung oder Lastschrift", "virement ou prélèvement") beside its own IBAN.
const DEBITED_FROM =
  /\b(?:abgebucht|abbuchen|eingezogen|einziehen|debited|preleve[es]?|geincasseerd|afgeschreven|addebitat[oaie]|domiciliad[oa]s?|adeudad[oa]s?|debitad[oa]s?|cargad[oa]s?\s+en)\b/;

/**
 * A line saying the amount is taken from the account it prints ("Wird von Konto DE12... abgebucht",
 * "will be debited from", "prélevé sur le compte", "wordt geïncasseerd van"): a direct debit's
 * account is the customer's, whatever its check digits say; the seller's IBAN is the one to pay into.
 */
export function debitsTheAccount(text: string): boolean {
  return DEBITED_FROM.test(plain(text));
}


/** An original amount and a discount named in a row: a bill's or an instalment's amounts, not an invoice's net and gross. */
const ORIGINAL_AMOUNT = /(?:valor|importe|montant|amount|betrag)\s+original/i;
const DISCOUNT = /(?:desconto|descuento|discount|remise|rabatt|sconto)/i;

/**
 * A net in a row that also names an original amount and its discount ("VALOR ORIGINAL | VALOR DO
 * DESCONTO | VALOR LÍQUIDO" of a DANFE's bill block) is the amount after the discount, not the
 * amount before tax.
 */
function afterDiscount(page: PageText, h: LabelHit): boolean {
  if (h.definition.category !== 'SubTotal') return false;
  const row = page.rows[h.line.row] ?? [];
  return row.some((l) => ORIGINAL_AMOUNT.test(l.text)) && row.some((l) => DISCOUNT.test(l.text));
}

/** Words before a tax word that make it part of an amount's label: "(excl.", "incl.", "hors", "ohne". */
const TAX_QUALIFIER = /(?:\(|\b(?:excl|incl|exkl|inkl|excluding|including|exclusive|inclusive|ex|inc|exclusief|inclusief|zzgl|ohne|hors|sans|avec|plus|with|without|sem|com|sin|con)\.?)\s*(?:of\s+)?$/i;

/** Whether a line, or a line right above or below it in its column, holds an IBAN. */
function besideAnIban(page: PageText, line: TextLine): boolean {
  const { left, top, width, height } = line.layoutBox;
  const bottom = top + height;
  const touching = (l: TextLine) => (l.layoutBox.top < top ? top - (l.layoutBox.top + l.layoutBox.height) : l.layoutBox.top - bottom) < height;
  const neighbours = page.lines.filter((l) => l !== line && touching(l) && overlap(left, left + width, l.layoutBox.left, l.layoutBox.left + l.layoutBox.width) > 0);
  return [line, ...neighbours].some((l) => findIbans(l.text.toUpperCase()).length > 0);
}

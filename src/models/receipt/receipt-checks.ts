/**
 * What a till receipt's own print says for its date and total besides their labels: a second
 * reading of each, found independently, that confirms the value chosen (field-choice.ts counts a
 * confirmed value as checked). A confirmation never offers a value of its own, so a check that
 * finds nothing, or finds another value, changes no field; it only lets a value it agrees with be
 * reported at a confidence a reviewer may skip, its OCR reading still counting in full.
 */
import type { FieldCandidate } from '../fields/field-candidate.js';
import type { LabelHit } from '../fields/label-hits.js';
import { plausibleYear } from '../fields/field-values.js';
import { cents, findAmounts, findCurrencies, findDates } from '../fields/normalize.js';
import type { PageText, TextLine } from '../page/text/text-lines.js';

/**
 * How sure a check makes the field's value (its score; field-choice.ts still weighs the OCR's
 * reading of the characters): below 1, since the check confirms where the value is printed, not
 * that a digit was read right twice.
 */
export const CONFIRMED = 0.97;

/** A label strong enough to say what the value beside it is. */
const SURE_LABEL = 0.7;

/** A clock time printed beside a date: a till's timestamp of the sale ("18:46", "8:01:11 PM"). */
const TIME = /(?<![\d:])\d{1,2}:\d{2}(?::\d{2})?(?![\d:])/;

/** The confirmations the page's print gives for the receipt's date and total. */
export function receiptChecks(page: PageText, hits: readonly LabelHit[]): FieldCandidate[] {
  return [...dateConfirmation(page, hits), ...totalConfirmation(page, hits)];
}

/** The text of each line's row (lines side by side: a label and its value, a date and its time). */
function rowTexts(page: PageText): Map<TextLine, { row: number; text: string }> {
  const rows = new Map<TextLine, { row: number; text: string }>();
  page.rows.forEach((row, index) => {
    const text = row.map((l) => l.text).join(' ');
    for (const line of row) rows.set(line, { row: index, text });
  });
  return rows;
}

/**
 * Currencies of the countries that write the month first (the United States, the Philippines,
 * English Canada) and those a bare "$" may stand for: a receipt that prints one of them may date
 * itself either way.
 */
const MONTH_FIRST_CURRENCIES: ReadonlySet<string> = new Set(['USD', 'CAD', 'PHP', 'AUD', 'NZD', 'SGD', 'HKD', 'TWD', 'MXN']);

/**
 * The receipt's date, when the print leaves no doubt which day it is: every date on the page is
 * that one day (no second date, such as a validity or a delivery date, to take for it), its year
 * is printed in four digits or its month in words (not "05-12-16", whose two-digit year may come
 * first), its day and month read the same in either order ("23/01/2018") or the receipt's
 * currency is of a country that writes the day first ("10/03/2018" in ringgit or euros), and a
 * date label or the sale's time stands beside it or right above.
 */
function dateConfirmation(page: PageText, hits: readonly LabelHit[]): FieldCandidate[] {
  const rows = rowTexts(page);
  const labelRows = new Set(hits.filter((h) => h.definition.category === 'InvoiceDate' && h.definition.strength >= SURE_LABEL).map((h) => rows.get(h.line)?.row));
  const currencies = findCurrencies(page.text).map((c) => c.code);
  const dayFirstCountry = currencies.length > 0 && !currencies.some((c) => MONTH_FIRST_CURRENCIES.has(c));
  const found = page.lines.flatMap((line) =>
    findDates(line.text, { monthFirst: false })
      .filter((d) => plausibleYear(d.iso))
      .map((date) => {
        const printed = line.text.slice(date.index, date.index + date.length);
        const eitherOrder = findDates(printed, { monthFirst: true })[0]?.iso === date.iso;
        const unambiguous = /\d{4}|\p{L}/u.test(printed) && (eitherOrder || dayFirstCountry);
        return { line, date, unambiguous };
      }),
  );
  const days = new Set(found.map((f) => f.date.iso));
  const [only] = found;
  if (days.size !== 1 || !only || !found.every((f) => f.unambiguous)) return [];
  const placed = found.some(({ line }) => {
    const row = rows.get(line);
    return row !== undefined && (labelRows.has(row.row) || labelRows.has(row.row - 1) || TIME.test(row.text));
  });
  if (!placed) return [];
  return [{ category: 'InvoiceDate', value: only.line, contentNormalized: only.date.iso, score: CONFIRMED, label: 0, confirms: true }];
}

/** An amount's size in cents: tills print payments and refunds with either sign. */
const size = (value: string) => Math.abs(cents(value));

/**
 * The receipt's total, when the print states it twice and nothing larger: the largest amount of
 * the page (the cash tendered and the change aside), in a row a total label heads, printed on
 * another line too (the payment line of an exact payment, "Total Sales" above "TOTAL", a rounded
 * total equal to it). A subtotal or a tax, however often printed, is smaller than the total.
 */
function totalConfirmation(page: PageText, hits: readonly LabelHit[]): FieldCandidate[] {
  const rows = rowTexts(page);
  const rowOf = (line: TextLine) => rows.get(line)?.row ?? -1;
  const sure = (category: string) => hits.filter((h) => h.definition.category === category && h.definition.strength >= SURE_LABEL);
  const paymentRows = new Set([...sure('Tendered'), ...sure('Change')].map((h) => rowOf(h.line)));
  const totalRows = new Set(sure('InvoiceTotal').map((h) => rowOf(h.line)));
  const amounts = page.lines.flatMap((line) =>
    findAmounts(line.text)
      .filter((a) => a.decimals && /[.,]\d{2}$/.test(line.text.slice(a.index, a.index + a.length)))
      .map((amount) => ({ line, value: amount.value, cents: size(amount.value) })),
  );
  const largest = Math.max(0, ...amounts.filter((a) => !paymentRows.has(rowOf(a.line))).map((a) => a.cents));
  if (largest === 0) return [];
  const printings = amounts.filter((a) => a.cents === largest);
  const labelled = printings.find((a) => totalRows.has(rowOf(a.line)));
  if (!labelled || new Set(printings.map((a) => a.line)).size < 2) return [];
  return [{ category: 'InvoiceTotal', value: labelled.line, contentNormalized: labelled.value, score: CONFIRMED, label: 0, confirms: true }];
}

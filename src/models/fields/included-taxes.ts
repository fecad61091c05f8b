/**
 * How a tax that is not added to a net checks the total (included-tax-labels.ts names them): a tax
 * the gross price contains is the rate's share of that gross (220,00 at 19 % contains 35,13), and
 * a tax the buyer withholds is taken off what the net and the added tax come to (2.269.400 +
 * 363.104 − 249.634 = 2.382.870). Neither makes a net where the page prints none.
 */
import type { TextLine } from '../page/text/text-lines.js';

/** A rate printed in a label's line: "inklusive 19 % Versicherungsteuer", "dont TVA 20 %". */
const PRINTED_RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s*%/g;

/** The tax rates (0 < r < 30) printed in these lines. */
export function printedRates(lines: ReadonlyArray<TextLine | undefined>): number[] {
  const rates = new Set<number>();
  for (const line of lines) {
    for (const match of line?.text.matchAll(PRINTED_RATE) ?? []) {
      const rate = Number(match[1]!.replace(',', '.'));
      if (rate > 0 && rate < 30) rates.add(rate);
    }
  }
  return [...rates];
}

/** Whether `tax` (cents) is what a gross `total` (cents) contains at one of `rates`, to the cent: total × r / (100 + r). */
export function containedAtRate(tax: number, total: number, rates: readonly number[]): boolean {
  return tax !== 0 && rates.some((rate) => Math.abs((total * rate) / (100 + rate) - tax) <= 1);
}

/** Whether the total (cents) is the net plus the tax less one of the taxes withheld (cents, any sign printed). */
export function totalAfterWithholding(net: number, tax: number, total: number, withheld: readonly number[]): boolean {
  return withheld.some((w) => w !== 0 && Math.abs(net + tax - Math.abs(w) - total) <= 1);
}

/**
 * The check digits of European VAT ids, country by country, and the national company number a
 * VAT id holds (the French SIREN after its key, the Belgian enterprise number, the Italian
 * partita IVA): what confidence-evidence.ts weighs a VAT id by. A VAT id whose check digits fail
 * is misread or a placeholder ("DE123456789"); one that holds another company number than the
 * one its party prints beside it is another company's.
 */
import { isValidPtNif } from './identifiers.js';
import { luhn } from './luhn.js';

const digitsOf = (text: string) => [...text].map(Number);

/** Sum of the digits times their weights. */
const weighted = (digits: readonly number[], weights: readonly number[]) => weights.reduce((sum, weight, i) => sum + weight * digits[i]!, 0);

/** ISO 7064 MOD 11,10 (German and Croatian VAT ids): the last digit checks the others. */
function iso7064Mod11x10(number: string): boolean {
  let product = 10;
  for (const digit of digitsOf(number.slice(0, -1))) {
    const sum = (digit + product) % 10 || 10;
    product = (2 * sum) % 11;
  }
  return (11 - product) % 10 === Number(number.at(-1));
}


/** Weights whose sum, modulo 11, gives the check digit as 11 less the remainder (0 for none; a remainder of 1 is no valid number). */
function mod11(number: string, weights: readonly number[]): boolean {
  const remainder = weighted(digitsOf(number), weights) % 11;
  const check = remainder === 0 ? 0 : 11 - remainder;
  return check < 10 && check === Number(number[weights.length]);
}

/** Per country: the form of the part after its prefix and the test of its check digits. */
const CHECKS: Readonly<Record<string, { form: RegExp; valid: (number: string) => boolean }>> = {
  AT: {
    form: /^U\d{8}$/,
    valid: (n) => {
      const d = digitsOf(n.slice(1));
      const sum = [0, 2, 4, 6].reduce((s, i) => s + d[i]!, 0) + [1, 3, 5].reduce((s, i) => s + Math.floor((2 * d[i]!) / 10) + ((2 * d[i]!) % 10), 0);
      return (10 - ((sum + 4) % 10)) % 10 === d[7];
    },
  },
  BE: { form: /^[01]\d{9}$/, valid: (n) => 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8)) },
  DE: { form: /^\d{9}$/, valid: iso7064Mod11x10 },
  DK: { form: /^\d{8}$/, valid: (n) => weighted(digitsOf(n), [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0 },
  FI: { form: /^\d{8}$/, valid: (n) => mod11(n, [7, 9, 10, 5, 8, 4, 2]) },
  // A numeric key only: a key with letters has another rule.
  FR: { form: /^[0-9A-Z]{2}\d{9}$/, valid: (n) => !/^\d{2}/.test(n) || (12 + 3 * (Number(n.slice(2)) % 97)) % 97 === Number(n.slice(0, 2)) },
  GB: {
    form: /^\d{9}(?:\d{3})?$/,
    valid: (n) => {
      const total = weighted(digitsOf(n), [8, 7, 6, 5, 4, 3, 2]) + Number(n.slice(7, 9));
      return total % 97 === 0 || (total + 55) % 97 === 0;
    },
  },
  HR: { form: /^\d{11}$/, valid: iso7064Mod11x10 },
  IT: { form: /^\d{11}$/, valid: luhn },
  LU: { form: /^\d{8}$/, valid: (n) => Number(n.slice(0, 6)) % 89 === Number(n.slice(6)) },
  // The older numbers by an eleven-test; the sole traders' numbers since 2020 by mod 97 over the whole id.
  NL: {
    form: /^\d{9}B\d{2}$/,
    valid: (n) => weighted(digitsOf(n.slice(0, 9)), [9, 8, 7, 6, 5, 4, 3, 2, -1]) % 11 === 0 || mod97(`NL${n}`) === 1,
  },
  NO: { form: /^\d{9}$/, valid: (n) => mod11(n, [3, 2, 7, 6, 5, 4, 3, 2]) },
  PL: { form: /^\d{10}$/, valid: (n) => weighted(digitsOf(n), [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === Number(n[9]) },
  PT: { form: /^\d{9}$/, valid: isValidPtNif },
  SE: { form: /^\d{10}01$/, valid: (n) => luhn(n.slice(0, 10)) },
};

/** A string of letters and digits modulo 97, letters read as 10..35. */
function mod97(text: string): number {
  let remainder = 0;
  for (const char of text.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55))) remainder = (remainder * 10 + Number(char)) % 97;
  return remainder;
}

/** Without spaces and marks, and without the "MVA" Norway writes after its numbers. */
const compact = (vatId: string) => vatId.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^(NO\d{9})MVA$/, '$1');

/**
 * Whether a VAT id's check digits hold: true or false for the countries whose rule is known and
 * whose form the id has (a wrong length fails), undefined for the others and for ids without a
 * country prefix.
 */
export function vatCheckDigits(vatId: string): boolean | undefined {
  const id = compact(vatId);
  const check = CHECKS[id.slice(0, 2)];
  if (!check) return undefined;
  const number = id.slice(2);
  return check.form.test(number) && check.valid(number);
}

/**
 * The national company number a VAT id holds, which the company prints as its register number
 * too: the SIREN after the French key, the number itself elsewhere (Belgium, Italy, Spain,
 * Portugal, Poland, Denmark, Norway, Finland, Croatia, the Czech company number), the Swedish
 * organisation number without its "01". Undefined where the VAT id holds none (Germany, Austria,
 * the Netherlands, the United Kingdom).
 */
export function nationalNumberOf(vatId: string): string | undefined {
  const id = compact(vatId);
  const [country, number] = [id.slice(0, 2), id.slice(2)];
  if (country === 'FR') return /^[0-9A-Z]{2}\d{9}$/.test(number) ? number.slice(2) : undefined;
  if (country === 'SE') return /^\d{10}01$/.test(number) ? number.slice(0, 10) : undefined;
  if (country === 'CZ') return /^\d{8}$/.test(number) ? number : undefined;
  return ['BE', 'IT', 'ES', 'PT', 'PL', 'DK', 'NO', 'FI', 'HR'].includes(country) && /^[0-9A-Z]{8,11}$/.test(number) ? number : undefined;
}

/**
 * Sellers' tax ids that are no EU VAT number and carry no country prefix, known by their printed
 * shape: the Brazilian CNPJ ("81.583.054/0001-29") and CPF ("765.865.078-12"), the Mexican RFC
 * ("AAA010101AAA"), the Indian GSTIN ("29AAHCS6672E1ZZ"), the Japanese qualified invoice issuer's
 * number ("T7000012050002"), the Australian ABN ("51 824 753 556"), the Canadian business number
 * with its program account ("784123655 RT0001") and the Chinese unified social credit code
 * ("91420000753416406R"). Taiwan's business number (統一編號) is eight digits, a shape too common
 * to find alone: its check (validTaiwanBusinessNumber) is weighed where a Chinese label names it. Where a number has check
 * digits their test is evidence for it as an EU VAT id's are (confidence-evidence.ts): a number
 * whose digits fail is misread or a placeholder.
 */

import { luhn } from './luhn.js';

export type NationalTaxIdKind = 'CNPJ' | 'CPF' | 'RFC' | 'GSTIN' | 'JP-T' | 'ABN' | 'CA-BN' | 'CN-USCC';

export interface NationalTaxId {
  kind: NationalTaxIdKind;
  index: number;
  length: number;
  /** Digits and letters only, upper case ("81583054000129", "T7000012050002"). */
  normalized: string;
}

const digitsOf = (text: string) => [...text].map(Number);
const weighted = (digits: readonly number[], weights: readonly number[]) => weights.reduce((sum, weight, i) => sum + weight * digits[i]!, 0);

/** Brazil's mod 11 check digit: 0 where the remainder is below 2, else 11 less the remainder. */
const brazilCheck = (digits: readonly number[], weights: readonly number[]) => {
  const remainder = weighted(digits, weights) % 11;
  return remainder < 2 ? 0 : 11 - remainder;
};

/** CNPJ: twelve digits (the company and its establishment), then two mod 11 check digits. */
function validCnpj(number: string): boolean {
  const d = digitsOf(number);
  return brazilCheck(d, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[12] && brazilCheck(d, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]) === d[13];
}

/** CPF: nine digits, then two mod 11 check digits; one digit repeated is no number. */
function validCpf(number: string): boolean {
  const d = digitsOf(number);
  if (/^(\d)\1{10}$/.test(number)) return false;
  return brazilCheck(d, [10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[9] && brazilCheck(d, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[10];
}

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** GSTIN: the fifteenth character checks the fourteen before it, a Luhn test in base 36. */
function validGstin(gstin: string): boolean {
  let sum = 0;
  for (const [i, char] of [...gstin.slice(0, 14)].entries()) {
    const product = BASE36.indexOf(char) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36] === gstin[14];
}

/** Japanese corporate number (after the T): its first digit is 9 less the sum of the others, weighted 1 and 2 from the right, modulo 9. */
function validJapaneseNumber(number: string): boolean {
  const body = digitsOf(number.slice(1)).reverse();
  const sum = body.reduce((total, digit, i) => total + digit * (i % 2 === 0 ? 1 : 2), 0);
  return 9 - (sum % 9) === Number(number[0]);
}

/** The characters of a Chinese unified social credit code: digits and the capitals but I, O, S, V, Z. */
const USCC_CHARACTERS = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** Chinese unified social credit code: its eighteenth character checks the seventeen before it, weights 3^i modulo 31. */
function validUscc(code: string): boolean {
  let sum = 0;
  for (let i = 0, weight = 1; i < 17; i++, weight = (weight * 3) % 31) sum += USCC_CHARACTERS.indexOf(code[i]!) * weight;
  return USCC_CHARACTERS[(31 - (sum % 31)) % 31] === code[17];
}

/**
 * Taiwan's business administration number (統一編號): eight digits weighted 1,2,1,2,1,2,4,1, the
 * digits of each product summed, the total divisible by 5 (by 10 before the numbers ran short and
 * the Ministry of Finance widened the rule; every old number passes the new test). Where the
 * seventh digit is 7 its product (28) counts as 10 or as 1, either passing.
 */
export function validTaiwanBusinessNumber(number: string): boolean {
  if (!/^\d{8}$/.test(number)) return false;
  const productDigits = (product: number) => Math.floor(product / 10) + (product % 10);
  const sum = digitsOf(number).reduce((total, digit, i) => total + productDigits(digit * [1, 2, 1, 2, 1, 2, 4, 1][i]!), 0);
  return sum % 5 === 0 || (number[6] === '7' && (sum + 1) % 5 === 0);
}

/** ABN: the first digit less one, the digits weighted, divisible by 89. */
function validAbn(number: string): boolean {
  const d = digitsOf(number);
  d[0]! -= 1;
  return weighted(d, [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) % 89 === 0;
}

/** A date as an RFC holds it (year, month, day, two digits each): the person's birth or the company's founding. */
function validRfcDate(date: string): boolean {
  const [month, day] = [Number(date.slice(2, 4)), Number(date.slice(4, 6))];
  return month >= 1 && month <= 12 && day >= 1 && day <= 31;
}

interface Shape {
  kind: NationalTaxIdKind;
  pattern: RegExp;
  /** Undefined where the number has no check digits to test, or where its issuer does not keep to them. */
  valid?: (normalized: string) => boolean;
  /** A further test of its form (an RFC's date). */
  formed?: (normalized: string) => boolean;
}

/**
 * The shapes, as printed. A CNPJ is its groups with their dots, slash and dash, or fourteen digits
 * together; a CPF only with its dots and dash (eleven digits alone are too many other things);
 * an ABN in its groups of 2-3-3-3. The RFC's last character is a check digit that the tax
 * authority's own test numbers and many real ones do not keep to: only its form counts.
 */
const SHAPES: readonly Shape[] = [
  { kind: 'CNPJ', pattern: /(?<![\d./-])(?:\d{2}\.\d{3}\.\d{3}\s?\/\s?\d{4}\s?-\s?\d{2}|\d{14})(?![\d/-]|\.\d)/, valid: validCnpj },
  { kind: 'CPF', pattern: /(?<![\d./-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\d/-]|\.\d)/, valid: validCpf },
  { kind: 'GSTIN', pattern: /(?<![A-Z0-9])\d{2}[A-Z]{5}\d{4}[A-Z][A-Z\d]Z[A-Z\d](?![A-Z0-9])/, valid: validGstin },
  { kind: 'JP-T', pattern: /(?<![A-Z0-9])T\s?-?\s?\d{13}(?!\d)/, valid: (n) => validJapaneseNumber(n.slice(1)) },
  { kind: 'ABN', pattern: /(?<!\d ?)\d{2} \d{3} \d{3} \d{3}(?! ?\d)/, valid: validAbn },
  // The program account (RT for GST/HST) after the nine digits, which the CRA also prints grouped
  // ("12201 6769 RT0001", "123 456 789 RT 0001"); the ninth digit is a Luhn check digit.
  { kind: 'CA-BN', pattern: /(?<!\d ?)(?:\d{9}|\d{5}\s\d{4}|\d{3}\s\d{3}\s\d{3})\s?R[TPCR]\s?\d{4}(?!\d)/, valid: (n) => luhn(n.slice(0, 9)) },
  { kind: 'CN-USCC', pattern: /(?<![A-Z0-9])[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}(?![A-Z0-9])/, valid: validUscc },
  { kind: 'RFC', pattern: /(?<![\p{L}\p{N}&])[A-ZÑ&]{3,4}\s?-?\s?\d{6}\s?-?\s?[A-Z\d]{3}(?![\p{L}\p{N}])/u, formed: (n) => validRfcDate(n.replace(/^[A-ZÑ&]{3,4}/, '').slice(0, 6)) },
];

/** The first national tax id of a known shape in `text`, or undefined. */
export function findNationalTaxId(text: string): NationalTaxId | undefined {
  let first: NationalTaxId | undefined;
  for (const shape of SHAPES) {
    const match = shape.pattern.exec(text);
    if (!match) continue;
    const normalized = match[0].toUpperCase().replace(/[^A-Z0-9Ñ&]/g, '');
    if (shape.formed && !shape.formed(normalized)) continue;
    if (!first || match.index < first.index) first = { kind: shape.kind, index: match.index, length: match[0].length, normalized };
  }
  return first;
}

/**
 * Whether the check digits of the national tax id printed in `printed` hold: true or false for
 * the numbers that have them, undefined where no such number is printed or it has none (an RFC).
 */
export function nationalCheckDigits(printed: string): boolean | undefined {
  const found = findNationalTaxId(printed.toUpperCase());
  const shape = found && SHAPES.find((s) => s.kind === found.kind);
  return shape?.valid?.(found!.normalized);
}

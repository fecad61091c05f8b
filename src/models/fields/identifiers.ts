/**
 * Check-digit validation of the identifiers documents carry, so that a number that merely looks
 * like one (any nine digits, any sixteen digits) is not reported as one.
 */
import { findNationalTaxId } from './national-tax-ids.js';

/** IBAN without spaces, upper case; valid when its mod-97 check (ISO 13616) gives 1. */
export function isValidIban(iban: string): boolean {
  const compact = compactIban(iban);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(compact)) return false;
  // Move the country code and check digits to the end and read letters as 10..35.
  const digits = (compact.slice(4) + compact.slice(0, 4)).replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let remainder = 0;
  for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97;
  return remainder === 1;
}

function compactIban(iban: string): string {
  return iban.replace(/[\s-]/g, '').toUpperCase();
}

// First digits of valid NIF/NIPC numbers: persons (1-3), companies (5), public bodies (6),
// sole traders (8), irregular entities (9), and the two-digit prefixes of 4 and 7.
const PT_NIF_PREFIX = /^(?:[1235689]|4[5]|7[0124579])/;

/** Portuguese tax number (NIF/NIPC): nine digits whose last is the mod-11 check digit. */
export function isValidPtNif(nif: string): boolean {
  if (!/^\d{9}$/.test(nif) || !PT_NIF_PREFIX.test(nif)) return false;
  const sum = [...nif.slice(0, 8)].reduce((total, digit, i) => total + Number(digit) * (9 - i), 0);
  const remainder = sum % 11;
  return Number(nif[8]) === (remainder < 2 ? 0 : 11 - remainder);
}

/** Payment card numbers (and other Luhn-checked numbers) of 12 to 19 digits. */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  [...digits].reverse().forEach((char, i) => {
    let digit = Number(char);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  });
  return sum % 10 === 0;
}

export interface FoundIdentifier {
  index: number;
  length: number;
  /** Without spaces, dots and dashes, upper case. */
  normalized: string;
  /** A character OCR misread was put right to make it valid (findIbans). */
  repaired?: boolean;
}

// Country code, check digits, then 11 to 30 letters or digits, in groups or not.
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}/g;

/**
 * IBANs in a text, checked with mod-97: of each candidate the longest valid prefix (other text
 * may follow it); else, where its country's format says which characters are letters and which
 * digits, the candidate with the ones OCR confused put right by that format ("NW8K" for NWBK),
 * when its check digits then pass (marked repaired: read less surely than an IBAN read whole).
 */
export function findIbans(text: string): FoundIdentifier[] {
  const found: FoundIdentifier[] = [];
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const whole = longestValidPrefix(match[0]);
    if (whole !== undefined) found.push({ index: match.index, length: whole, normalized: compactIban(match[0].slice(0, whole)) });
    else {
      const repaired = byCountryFormat(match[0]);
      if (repaired) found.push({ index: match.index, ...repaired, repaired: true });
    }
  }
  return found;
}

/**
 * An IBAN's length in characters, fixed per country by the ISO 13616 registry. Where the country
 * is known, only the prefix of that length can be the IBAN: trying every shorter prefix of a longer
 * number (a GLN, a barcode's digits after "DE00") would find one whose check digits pass by chance
 * about once in five.
 */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24, AE: 23, AL: 28, AT: 20, AZ: 28, BA: 20, BE: 16, BG: 22, BH: 22, BR: 29, BY: 28, CH: 21, CR: 22, CY: 28, CZ: 24, DE: 22, DK: 18, DO: 28,
  EE: 20, EG: 29, ES: 24, FI: 18, FO: 18, FR: 27, GB: 22, GE: 22, GI: 23, GL: 18, GR: 27, GT: 28, HR: 21, HU: 28, IE: 22, IL: 23, IQ: 23, IS: 26,
  IT: 27, JO: 30, KW: 30, KZ: 20, LB: 28, LC: 32, LI: 21, LT: 20, LU: 20, LV: 21, MC: 27, MD: 24, ME: 22, MK: 19, MR: 27, MT: 31, MU: 30, NL: 18,
  NO: 15, PK: 24, PL: 28, PS: 29, PT: 25, QA: 29, RO: 24, RS: 22, SA: 24, SC: 31, SE: 24, SI: 19, SK: 24, SM: 27, ST: 25, SV: 28, TL: 23, TN: 24,
  TR: 26, UA: 29, VA: 22, VG: 24, XK: 20,
};

function longestValidPrefix(candidate: string): number | undefined {
  const registered = IBAN_LENGTHS[candidate.slice(0, 2)];
  for (let length = candidate.length; length >= 15; length--) {
    const prefix = candidate.slice(0, length);
    if (prefix.endsWith(' ') || (registered !== undefined && compactIban(prefix).length !== registered)) continue;
    if (isValidIban(prefix)) return length;
  }
  return undefined;
}

/**
 * The account part of IBANs by country (ISO 13616 registry), where its characters' kinds are
 * fixed: n a digit, a a letter, c either. Countries whose accounts are digits throughout are here
 * too: a letter in them is a misread digit.
 */
const BBAN_FORMATS: Readonly<Record<string, string>> = {
  AT: 'n'.repeat(16), BE: 'n'.repeat(12), CH: 'n'.repeat(5) + 'c'.repeat(12), DE: 'n'.repeat(18), DK: 'n'.repeat(14), ES: 'n'.repeat(20),
  FI: 'n'.repeat(14), FR: 'n'.repeat(10) + 'c'.repeat(11) + 'nn', GB: 'aaaa' + 'n'.repeat(14), IE: 'aaaa' + 'n'.repeat(14), IT: 'a' + 'n'.repeat(10) + 'c'.repeat(12),
  LU: 'nnn' + 'c'.repeat(13), NL: 'aaaa' + 'n'.repeat(10), NO: 'n'.repeat(11), PL: 'n'.repeat(24), PT: 'n'.repeat(21), SE: 'n'.repeat(20),
};

/** The candidate's IBAN with its characters made of the kinds its country's format fixes, if that passes the check digits. */
function byCountryFormat(candidate: string): { length: number; normalized: string } | undefined {
  const format = BBAN_FORMATS[candidate.slice(0, 2)];
  if (!format) return undefined;
  const kinds = `aann${format}`;
  let normalized = '';
  let length = 0;
  for (const char of candidate) {
    if (normalized.length === kinds.length) break;
    length++;
    if (char === ' ') continue;
    const kind = kinds[normalized.length];
    const digit = /\d/.test(char);
    normalized += kind === 'n' && !digit ? (AS_DIGIT[char] ?? char) : kind === 'a' && digit ? (AS_LETTER[char] ?? char) : char;
  }
  return normalized.length === kinds.length && normalized !== compactIban(candidate.slice(0, length)) && isValidIban(normalized) ? { length, normalized } : undefined;
}

/**
 * An account number of an IBAN's form whose check digits fail: its country's registered length,
 * and where the registry fixes its characters' kinds, those kinds; what stands after an "IBAN"
 * label in that form is the account printed (a typo, sample data, a misread digit), to be
 * reported as unchecked (field-choice.ts), never as a valid one.
 */
export function findUncheckedIban(text: string): FoundIdentifier | undefined {
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const registered = IBAN_LENGTHS[match[0].slice(0, 2)];
    if (registered === undefined) continue;
    let length = 0;
    let compact = '';
    for (const char of match[0]) {
      if (compact.length === registered) break;
      length++;
      if (char !== ' ') compact += char;
    }
    // The number goes on past its country's length: some other number, not an IBAN.
    if (compact.length !== registered || /^[A-Z0-9]/.test(match[0].slice(length))) continue;
    const kinds = BBAN_FORMATS[compact.slice(0, 2)];
    const formed = !kinds || [...compact.slice(4)].every((char, i) => (kinds[i] === 'n' ? /\d/.test(char) : kinds[i] === 'a' ? /[A-Z]/.test(char) : true));
    if (formed) return { index: match.index, length, normalized: compact };
  }
  return undefined;
}

/**
 * Tax ids that carry their country (Swiss UID, Austrian, Dutch, French, Belgian VAT numbers): their
 * shape alone names them. A Swiss UID registered for VAT is written with the tax's name after it
 * ("CHE-112.203.184 MWST", "... TVA", "... IVA"): the VAT number as printed, suffix and all.
 */
const PREFIXED_VAT: readonly RegExp[] = [
  /\bCHE[-\s]?\d{3}[.\s]?\d{3}[.\s]?\d{3}\b(?:\s?(?:MWST|TVA|IVA)\b)?/,
  /\bATU\d{8}\b/,
  /\bNL\s?\d{9}\s?B\s?\d{2}\b/,
  /\bFR\s?[0-9A-Z]{2}\s?\d{3}\s?\d{3}\s?\d{3}\b/,
  /\bBE\s?0?\d{3}[.\s]?\d{3}[.\s]?\d{3}\b/,
];

/**
 * Tax numbers whose shape names their country: Indian GSTIN, Swiss UID, Austrian, Dutch, French,
 * Spanish and Belgian VAT numbers, Malaysian SST, Spanish CIF/NIF without a prefix, German tax
 * office numbers (the national ids of other countries: national-tax-ids.ts).
 */
const SHAPED_TAX_IDS: readonly RegExp[] = [
  /\b\d{2}[A-Z]{5}\d{4}[A-Z][A-Z\d]Z[A-Z\d]\b/,
  ...PREFIXED_VAT,
  /\bES\s?[A-Z0-9]\d{7}[A-Z0-9]\b/,
  /\b[A-Z]\d{2}-\d{4}-\d{8}\b/,
  /\b[A-HJ-NP-SUVW]\d{7}[0-9A-J]\b/,
  /\b\d{8}[A-Z]\b/,
  // A German tax office number ("Steuernummer 06481/23457", "12/345/67890"): ten to thirteen digits.
  /\b(?=(?:\d\/?){10,13}\b)\d{2,5}\/\d{3,5}(?:\/\d{4,5})?\b/,
];

/** A VAT number that names its country and so needs no label to be one. */
export function findPrefixedVatNumber(text: string): FoundIdentifier | undefined {
  const match = PREFIXED_VAT.map((pattern) => pattern.exec(text)).filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0];
  return match && { index: match.index, length: match[0].length, normalized: withoutSeparators(match[0]) };
}

/** A tax id as its digits and letters are kept: no spaces, dots or dashes, nor a Swiss UID's tax suffix (printed, it stays in the content). */
function withoutSeparators(printed: string): string {
  return printed.replace(/\s?(?:MWST|TVA|IVA)$/, '').replace(/[\s.-]/g, '');
}

/** What OCR reads for a letter where a digit belongs, and for a digit where a letter belongs. */
const AS_DIGIT: Readonly<Record<string, string>> = { O: '0', D: '0', Q: '0', I: '1', L: '1', S: '5', B: '8', Z: '2', G: '6', T: '7' };
const AS_LETTER: Readonly<Record<string, string>> = { '0': 'O', '1': 'I', '2': 'Z', '5': 'S', '6': 'G', '8': 'B', '4': 'A', '7': 'T' };

/** Where an Indian GSTIN has digits (state, PAN number), letters (PAN letters) and its fixed Z. */
const GSTIN_FORM = 'DDLLLLLDDDDLAZA';
const GSTIN_LOOSE = /\b[0-9A-Z]{15}\b/g;

/**
 * A GSTIN whose letters OCR read as digits or the reverse ("31BPATW823906Z8" for the PAN's
 * letter O): its form is so strict (state digits, five letters, four digits, a letter, a
 * character, Z, a character) that a token of fifteen that fits it but for such confusions is one.
 */
function findOcrGstin(text: string): FoundIdentifier | undefined {
  for (const match of text.toUpperCase().matchAll(GSTIN_LOOSE)) {
    let repaired = '';
    for (const [i, char] of [...match[0]].entries()) {
      const form = GSTIN_FORM[i];
      if (form === 'D') repaired += /\d/.test(char) ? char : (AS_DIGIT[char] ?? '?');
      else if (form === 'L') repaired += /[A-Z]/.test(char) ? char : (AS_LETTER[char] ?? '?');
      else if (form === 'Z') repaired += char === 'Z' || char === '2' ? 'Z' : '?';
      else repaired += char;
    }
    // Compared with the text as printed: a lower-case letter ("...W4z8") is a confusion too.
    if (!repaired.includes('?') && repaired !== text.slice(match.index, match.index + 15) && SHAPED_TAX_IDS[0]!.test(repaired)) return { index: match.index, length: 15, normalized: repaired };
  }
  return undefined;
}

/** VAT numbers that are a country code and digits only: the code, and how many digits follow it. */
const VAT_DIGITS: Readonly<Record<string, readonly number[]>> = {
  BE: [10], BG: [9, 10], CZ: [8, 9, 10], DE: [9], DK: [8], EE: [9], EL: [9], FI: [8], FR: [11], HR: [11], HU: [8], IT: [11], LT: [9, 12],
  LU: [8], LV: [11], MT: [8], NO: [9], PL: [10], PT: [9], SE: [12], SI: [8], SK: [10], GB: [9, 12], XI: [9, 12],
};
const PREFIX_BEFORE_NUMBER = /(?<![\p{L}\p{N}])([0-9A-Z])([0-9A-Z])(\s?)(\d{8,12})(?![\p{L}\p{N}])/gu;

/**
 * `text` with a VAT number's country prefix put right where OCR read its letters as digits
 * ("1T01234567890", "1785845308698" for IT..., "8E 0123456789" for BE...): only into a country
 * code followed by as many digits as that country's numbers have, and when both letters were
 * read as digits only for numbers too long to be a bare national number (eleven digits or more).
 */
function withCountryPrefix(text: string): string {
  return text.replace(PREFIX_BEFORE_NUMBER, (whole, a: string, b: string, space: string, digits: string) => {
    const code = (AS_LETTER[a] ?? a) + (AS_LETTER[b] ?? b);
    const spoiled = [a, b].filter((c) => /\d/.test(c)).length;
    if (spoiled === 0 || !VAT_DIGITS[code]?.includes(digits.length) || (spoiled === 2 && digits.length < 11)) return whole;
    return `${code}${space}${digits}`;
  });
}

/**
 * The tax number in a labelled value: a number of a known national shape, else an optional
 * country prefix and 8 to 15 characters, mostly digits. Portuguese numbers (PT prefix, or any
 * when `portuguese`) must pass the NIF check digit.
 */
export function findTaxId(printed: string, portuguese: boolean): FoundIdentifier | undefined {
  const text = withCountryPrefix(printed);
  const gstin = findOcrGstin(text);
  if (gstin) return gstin;
  const shaped = SHAPED_TAX_IDS.map((pattern) => pattern.exec(text)).filter((m): m is RegExpExecArray => m !== null).sort((a, b) => a.index - b.index)[0];
  // A national id without a country prefix (a CNPJ, an RFC), whole: never cut at its slash or dash.
  const national = findNationalTaxId(text);
  if (national && (!shaped || national.index < shaped.index)) return { index: national.index, length: national.length, normalized: national.normalized };
  if (shaped) return { index: shaped.index, length: shaped[0].length, normalized: withoutSeparators(shaped[0]) };
  // Ending in a digit, or in a check letter right after one: not in the next word ("04382170282 - C.F.").
  const match = /\b([A-Z]{2})?[\s.-]?(\d[\d\s.-]{6,16}(?:\d|(?<=\d)[A-Z]))\b/.exec(text);
  if (!match) return undefined;
  const country = match[1];
  const number = match[2]!.replace(/[\s.-]/g, '');
  if (number.length < 8 || number.length > 15) return undefined;
  if ((country === 'PT' || (country === undefined && portuguese)) && !isValidPtNif(number)) return undefined;
  return { index: match.index, length: match[0].length, normalized: `${country ?? ''}${number}` };
}

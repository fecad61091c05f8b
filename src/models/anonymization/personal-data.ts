import { findIbans, findTaxId, isLuhnValid } from '../fields/identifiers.js';
import { acceptDate, findLabelledFields, subRun, type FieldRule } from '../fields/labelled-fields.js';
import { BIRTH_DATE_LABELS, FULL_NAME_LABELS, GIVEN_NAME_LABELS, PHONE_LABELS, SURNAME_LABELS, TAX_ID_LABEL } from '../fields/labels.js';
import { findMrz } from '../id-document/mrz-zone.js';
import type { DateOptions } from '../fields/normalize.js';
import { runInRange, type PageText, type TextRun } from '../page/text/text-lines.js';

export type PersonalDataCategory = 'Mrz' | 'Email' | 'IBAN' | 'CardNumber' | 'Phone' | 'TaxId' | 'DateOfBirth' | 'Name';

export interface PersonalData {
  category: PersonalDataCategory;
  run: TextRun;
  contentNormalized: string;
}

interface Found {
  category: PersonalDataCategory;
  index: number;
  length: number;
  normalized: string;
}

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/gu;
// An international number: + or 00, country code, then groups of digits (spaces, dots, dashes, brackets between).
const INTERNATIONAL_PHONE = /(?<![\w+])(?:\+|00)[1-9]\d{0,2}(?:[\s.-]?\(?\d{1,4}\)?){2,5}(?!\d)/g;
// Card numbers: 13 to 19 digits, in groups of up to four.
const CARD_NUMBER = /(?<!\d)\d{4}(?:[ -]?\d{1,4}){2,4}(?!\d)/g;

/**
 * Personal data on a page: MRZ lines, e-mail addresses, IBANs (mod-97), card numbers (Luhn),
 * international phone numbers anywhere; national phone numbers, tax numbers, dates of birth and
 * names where a label announces them. A stretch found by an earlier (more specific) detector is
 * not reported again by a later one.
 */
export function findPersonalData(page: PageText, dates: DateOptions): PersonalData[] {
  const mrz = findMrz(page.lines);
  const found: Found[] = [
    ...(mrz?.sourceLines ?? []).flatMap((line) =>
      line.spans.map(({ offset, length }) => ({ category: 'Mrz' as const, index: offset, length, normalized: line.text.replace(/\s+/g, '') })),
    ),
    ...matches(page.text, EMAIL, 'Email', (text) => text.toLowerCase()),
    ...findIbans(page.text).map((iban) => ({ category: 'IBAN' as const, ...iban })),
    ...matches(page.text, CARD_NUMBER, 'CardNumber', digitsOf).filter((card) => isLuhnValid(card.normalized)),
    ...matches(page.text, INTERNATIONAL_PHONE, 'Phone', phoneNumber),
  ];
  const labelled = findLabelledFields(page, labelledRules(dates)).flatMap(({ category, value, contentNormalized }) => {
    const [span] = value.spans;
    return span ? [{ category, index: span.offset, length: span.length, normalized: contentNormalized }] : [];
  });

  const kept: Found[] = [];
  for (const item of [...found, ...labelled]) {
    if (!kept.some((k) => item.index < k.index + k.length && k.index < item.index + item.length)) kept.push(item);
  }
  return kept
    .sort((a, b) => a.index - b.index)
    .flatMap(({ category, index, length, normalized }) => {
      const run = runInRange(page, index, index + length);
      return run ? [{ category, run, contentNormalized: normalized }] : [];
    });
}

function labelledRules(dates: DateOptions): FieldRule<PersonalDataCategory>[] {
  const name: FieldRule['accept'] = (value) => {
    const text = value.text.replace(/\s+/g, ' ').trim();
    // A name: two letters or more, no digits (not "Name: Invoice 2024/17").
    return /\p{L}{2}/u.test(text) && !/\d/.test(text) ? { contentNormalized: text } : undefined;
  };
  const phone: FieldRule['accept'] = (value, page) => {
    const match = /\+?\d[\d\s().-]{6,}\d/.exec(value.text);
    const digits = match && digitsOf(match[0]);
    return match && digits && digits.length >= 9 && digits.length <= 15
      ? { run: subRun(page, value, match.index, match[0].length), contentNormalized: phoneNumber(match[0]) }
      : undefined;
  };
  const taxId: FieldRule['accept'] = (value, page) => {
    const found = findTaxId(value.text, false);
    return found && { run: subRun(page, value, found.index, found.length), contentNormalized: found.normalized };
  };
  return [
    { category: 'DateOfBirth', labels: BIRTH_DATE_LABELS, accept: acceptDate(dates) },
    { category: 'TaxId', labels: [TAX_ID_LABEL, 'ssn', 'social\\s*security\\s*(?:no|number)', 'niss', 'n[º°o]?\\s*(?:de\\s*)?(?:utente|seguran[cç]a\\s*social)'], accept: taxId },
    { category: 'Phone', labels: PHONE_LABELS, accept: phone, colon: true },
    { category: 'Name', labels: [...SURNAME_LABELS, ...GIVEN_NAME_LABELS, ...FULL_NAME_LABELS], accept: name, colon: true },
  ];
}

function matches(text: string, pattern: RegExp, category: PersonalDataCategory, normalize: (match: string) => string): Found[] {
  return [...text.matchAll(pattern)].map((m) => ({ category, index: m.index, length: m[0].length, normalized: normalize(m[0]) }));
}

function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** E.164-like: a leading + kept (00 becomes +), digits only. */
function phoneNumber(text: string): string {
  const digits = digitsOf(text);
  if (text.trim().startsWith('+')) return `+${digits}`;
  return text.trim().startsWith('00') ? `+${digits.slice(2)}` : digits;
}

/**
 * The evidence for a chosen value, and the one rule that turns it into a confidence a reviewer can
 * act on (a reviewer skips fields at 0.9 or more), for invoices and receipts alike:
 *
 * - a value is sure when at least two independent kinds of evidence agree on it and nothing
 *   contradicts it; it is then raised to 0.9 or more (more the more kinds agree), however weakly
 *   its label alone scored it, where its characters are known to be read right (a text layer, or
 *   OCR sure of every word that read the value twice);
 * - with one kind alone it stays below 0.9, however strong that kind;
 * - a contradiction caps it lower still, whatever agrees.
 *
 * The kinds: the value read where a label or its place puts it (the candidate); its term's own
 * label ("Rechnungsnummer", "USt-IdNr.", not "No." or "Date"); a check against other printed values
 * (net + tax = gross, the total in words or paid in cash, an IBAN's or a tax id's check digits,
 * an EU VAT id's or a national one's as national-tax-ids.ts knows them, a due date after the
 * issue date); the same value found again another way (a second place, a second reading, a VAT
 * id holding the company number its party prints). A check over other printed values (the sums,
 * the words, the payment, an IBAN's mod 97) says by itself that the value was read right and is
 * the field: it counts as two.
 *
 * The contradictions: a check failed; another value for the field nearly as likely; a VAT id whose
 * check digits fail, or that holds another company number than its party prints; a tax office's
 * number standing in for a VAT id; an identifier the reader put right to pass its check digits;
 * an invoice number that holds another label; a sign that names several currencies (a bare "$")
 * on a document that does not say which, or a date that reads as two days (03/04/2024) on a
 * document that does not say whether the day or the month comes first. Impossible values are
 * capped after (impossible-values.ts).
 */
import type { InvoiceField } from './invoice-field-names.js';
import type { FieldCandidate } from './field-candidate.js';
import { hasCjk, plain } from './normalize.js';
import { findNationalTaxId, nationalCheckDigits, validTaiwanBusinessNumber } from './national-tax-ids.js';
import { nationalNumberOf, vatCheckDigits } from './vat-check-digits.js';

/**
 * Every check a field can pass or fail: 'pass' a check against other printed values; 'weak-pass'
 * one that only makes the value plausible (a due date after the issue date); 'confirmed' a second
 * reading of the page, independent of the field's label and place, found the same value (a
 * confirming candidate, field-candidate.ts); 'ambiguous' the value is one reading of several the
 * printed sign allows, and the document says nothing of which (a bare "$": US, Canadian or
 * Australian dollars, Mexican pesos; 03/04/2024 where nothing settles the order of day and month).
 */
export type Check = 'pass' | 'weak-pass' | 'fail' | 'confirmed' | 'ambiguous' | 'none';

export type AgreeingKind = 'read' | 'term label' | 'check' | 'found again';
export type Contradiction = 'check failed' | 'rival value' | 'check digits fail' | 'other company number' | 'tax office number' | 'characters put right' | 'holds a label' | 'ambiguous';

export interface Evidence {
  /** Each kind of agreeing evidence, a check over other printed values twice. */
  agreeing: AgreeingKind[];
  /** What speaks against the value, if anything. */
  against?: Contradiction;
}

/** Below the 0.9 from which a reviewer may skip a field: one kind of evidence alone, or a doubt. */
export const SINGLE_EVIDENCE_CAP = 0.85;
/** A contradiction the value fails outright: a reviewer must look. */
export const CONTRADICTED_CAP = 0.6;
/** A tax office's or register's number standing in for a VAT id: a reviewer should look. */
export const REGISTRATION_CAP = CONTRADICTED_CAP;
/** Where two kinds agree a value is raised to this at least; three or more, to the second. */
export const SURE = 0.92;
export const SURER = 0.96;

/** A label this strong is one of the term's own ("Rechnungsnummer", "Total TTC"), not a generic word ("No.", "Date", "Total"). */
const TERM_LABEL = 0.95;
/** A candidate scoring this is a reading of the field (a label or its place says so), not a guess. */
const READ = 0.5;
/** A rival value scoring this share of the chosen one's or more contradicts it. */
const RIVAL_SHARE = 0.8;

/** A VAT id's form: its country's prefix, then digits (and the letters some countries use). */
const isVatForm = (id: string) => /^(?:[A-Z]{2}|CHE)[0-9A-Z]{8,12}$/.test(id);
const TAX_ID_FIELDS: ReadonlySet<string> = new Set(['VendorTaxId', 'CustomerTaxId']);
/** Identifiers whose reading may put a character right to pass their check digits. */
const IDENTIFIERS: ReadonlySet<string> = new Set(['IBAN', 'VendorTaxId', 'CustomerTaxId']);
const alphanumerics = (text: string) => text.toUpperCase().replace(/[^A-Z0-9]/g, '');
/** Fields whose labels say less than which field: the parties' names, the amounts. */
const SHARED_LABELS: ReadonlySet<string> = new Set(['VendorName', 'CustomerName', 'SubTotal', 'TotalTax', 'InvoiceTotal']);

const key = (c: FieldCandidate) => plain(c.contentNormalized).replace(/[^\p{L}\p{N}]+/gu, '');
export const compactId = (value: string) => value.replace(/[\s.-]/g, '').toUpperCase();
const isRegistration = (c: FieldCandidate) => c.hit?.definition.category === 'TaxRegistration';

/** Which statement a candidate reads: its label's words, or none (a value found by its form or place). */
const statement = (c: FieldCandidate) => c.hit?.definition.source ?? `unlabelled ${c.label}`;

/**
 * The same value found by another way: under another label, or by its form or place where the
 * first was labelled (a name labelled and heading its block, a date labelled and printed in a
 * period). The same label again (a page header repeated on every page), or another label of the
 * same line ("Invoice Number: #1" read by "Invoice Number" and by "#"), says nothing new.
 */
function foundAgain(candidate: FieldCandidate, candidates: readonly FieldCandidate[]): boolean {
  return candidates.some(
    (c) => c !== candidate && !c.confirms && c.category === candidate.category && key(c) === key(candidate) && statement(c) !== statement(candidate) && (c.labelLine === undefined || c.labelLine !== candidate.labelLine),
  );
}

/** Two values one of which holds the other ("E2018092011804" and "2018092011804"): the same, printed two ways. */
function samePrinted(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter === longer || (shorter.length >= 6 && longer.includes(shorter));
}

/** Another value for the field scoring nearly as much: the page does not say which is the field. */
function rivalled(field: InvoiceField, candidate: FieldCandidate, candidates: readonly FieldCandidate[]): boolean {
  return candidates.some((c) => c.category === field && !c.confirms && !isRegistration(c) && !samePrinted(key(c), key(candidate)) && c.score >= RIVAL_SHARE * candidate.score);
}

/**
 * A VAT id against the company numbers its party prints (a SIREN, a SIRET, a partita IVA): the
 * same number confirms it, another contradicts it. Only numbers as long as the one it holds count
 * (a German register number is no part of any VAT id).
 */
export function companyNumbers(field: InvoiceField, vatId: string, candidates: readonly FieldCandidate[]): 'agree' | 'differ' | undefined {
  const held = nationalNumberOf(vatId);
  if (!held) return undefined;
  const printed = candidates
    .filter((c) => c.category === field && isRegistration(c))
    .map((c) => compactId(c.contentNormalized).replace(/^[A-Z]{2}(?=\d)/, ''))
    // A French SIRET is the SIREN and the establishment's five digits.
    .map((n) => (n.length === held.length + 5 && /^\d+$/.test(n) ? n.slice(0, held.length) : n))
    .filter((n) => n.length === held.length);
  if (printed.length === 0) return undefined;
  return printed.includes(held) ? 'agree' : 'differ';
}

/** What agrees with and what contradicts the chosen candidate of a field. */
export function evidenceFor(field: InvoiceField, candidate: FieldCandidate, check: Check, candidates: readonly FieldCandidate[]): Evidence {
  const agreeing: AgreeingKind[] = [];
  let against: Contradiction | undefined;
  if (candidate.score >= READ) agreeing.push('read');
  if (check === 'pass') agreeing.push('check', 'check');
  if (check === 'weak-pass') agreeing.push('check');
  if (check === 'fail') against = 'check failed';
  if (check === 'ambiguous') against = 'ambiguous';
  if (check === 'confirmed' || foundAgain(candidate, candidates)) agreeing.push('found again');
  // Two values nearly as likely and nothing but their labels and places to choose: a check or a second reading would have chosen.
  const unsettled = check !== 'pass' && check !== 'confirmed' && rivalled(field, candidate, candidates);
  // An identifier the reader put right (a letter OCR read as a digit) passes its check digits because it was made to.
  // A number that holds a word and a colon ("ATCUD:JF8346GM-21509" after "Fatura Nº") is another labelled value read as this one.
  if (field === 'InvoiceId' && /\p{L}{2,}\s*:/u.test(candidate.value.text)) against ??= 'holds a label';
  if (IDENTIFIERS.has(field) && !alphanumerics(candidate.value.text).includes(alphanumerics(candidate.contentNormalized))) against ??= 'characters put right';

  if (TAX_ID_FIELDS.has(field)) {
    const id = compactId(candidate.contentNormalized);
    // A VAT id's own label counts only with a value of a VAT id's form, or of a national tax id's
    // (a CNPJ under "CNPJ", an RFC after "RFC"); their check digits are weighed alike.
    const national = findNationalTaxId(candidate.value.text.toUpperCase());
    if (candidate.label >= TERM_LABEL && (isVatForm(id) || national)) agreeing.push('term label');
    // Eight digits after a Chinese label: Taiwan's business number, with its own check.
    const taiwanese = !national && /^\d{8}$/.test(id) && hasCjk(candidate.labelLine?.text ?? '');
    const digits = vatCheckDigits(id) ?? (national ? nationalCheckDigits(candidate.value.text) : taiwanese ? validTaiwanBusinessNumber(id) : undefined);
    if (digits === true) agreeing.push('check');
    const numbers = companyNumbers(field, id, candidates);
    if (numbers === 'agree') agreeing.push('found again');
    against ??= isRegistration(candidate) ? 'tax office number' : numbers === 'differ' ? 'other company number' : digits === false ? 'check digits fail' : unsettled ? 'rival value' : undefined;
  } else {
    // A name's label ("Name", "Firma") is shared by both parties, an amount's by several totals
    // (net, gross, due, a page's carried sum): only a second finding or the sums confirm them.
    if (candidate.label >= TERM_LABEL && !SHARED_LABELS.has(field)) agreeing.push('term label');
    if (unsettled && field !== 'Currency') against ??= 'rival value';
  }
  // Each kind once, but a check over other printed values twice.
  return { agreeing: [...new Set(agreeing.filter((k) => k !== 'check')), ...agreeing.filter((k) => k === 'check')], against };
}

/** The confidence caps of the contradictions: a failed check or another company's number well below 0.9, a doubt just below. */
const CONTRADICTION_CAP: Readonly<Record<Contradiction, number>> = {
  'check failed': CONTRADICTED_CAP,
  'other company number': CONTRADICTED_CAP,
  'tax office number': REGISTRATION_CAP,
  'check digits fail': SINGLE_EVIDENCE_CAP,
  'rival value': SINGLE_EVIDENCE_CAP,
  'characters put right': SINGLE_EVIDENCE_CAP,
  'holds a label': SINGLE_EVIDENCE_CAP,
  ambiguous: SINGLE_EVIDENCE_CAP,
};

/** OCR this sure of every word of a value, and a second reading agreeing, count its characters as read. */
const SURE_OCR = 0.9;
/** A text layer's words carry this confidence; OCR's words less. */
export const TEXT_LAYER = 0.999;

/**
 * The confidence the evidence allows a value whose label, place and reading gave it `base` (`ocr`:
 * the OCR's confidence in its least sure word, 1 for a text layer): a contradiction caps it, fewer
 * than two agreeing kinds cap it below 0.9, two or more raise it to 0.9 or more where its
 * characters are known to be read right: a text layer's, or OCR's sure of every word and found
 * again elsewhere (two readings that agree). Other OCR'd characters keep the confidence their
 * reading gives them, whatever agrees with the value.
 */
export function confidenceFromEvidence(base: number, evidence: Evidence, ocr: number): number {
  if (evidence.against) return Math.min(base, CONTRADICTION_CAP[evidence.against]);
  const kinds = evidence.agreeing.length;
  if (kinds < 2) return Math.min(base, SINGLE_EVIDENCE_CAP);
  // A value neither its label nor its place gave surely is a guess the other evidence does not make sure.
  if (!evidence.agreeing.includes('read')) return Math.min(base, SINGLE_EVIDENCE_CAP);
  const charactersRead = ocr >= TEXT_LAYER || (ocr >= SURE_OCR && evidence.agreeing.includes('found again'));
  if (!charactersRead) return base;
  return Math.max(base, kinds >= 3 ? SURER : SURE);
}

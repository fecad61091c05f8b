/**
 * How far a field's confidence may reach on an invoice, by the evidence that agrees on its value:
 * the label of its own business term (not a generic word), a value of the term's form, and a
 * second statement (the sums that add up, the due date after the issue date, the same value found
 * again by another way: a name both labelled and heading its block, printed in the letterhead and
 * the footer). A reviewer skips fields at 0.9 or more, so a field reaches it only with two
 * agreeing kinds of evidence; one alone, however strong, leaves it below.
 */
import type { InvoiceField } from './invoice-field-names.js';
import type { FieldCandidate } from './field-candidate.js';
import { plain } from './normalize.js';

/** Below the 0.9 from which a reviewer may skip a field. */
export const SINGLE_EVIDENCE_CAP = 0.85;
/** A tax office's or register's number standing in for a VAT id: a reviewer should look. */
export const REGISTRATION_CAP = 0.6;

/** A label this strong is one of the term's own ("Rechnungsnummer", "Total TTC"), not a generic word ("No.", "Date", "Total"). */
const TERM_LABEL = 0.95;

/** A VAT id's form: its country's prefix, then digits (and the letters some countries use). */
const VAT_FORM = /^(?:[A-Z]{2}|CHE)[0-9A-Z]{8,12}$/;

/** As in field-choice.ts: 'confirmed' is a second, independent reading of the same value. */
type Check = 'pass' | 'fail' | 'confirmed' | 'none';

/** A rival value scoring this share of the chosen one's or more contradicts it. */
const RIVAL_SHARE = 0.8;

const key = (c: FieldCandidate) => plain(c.contentNormalized).replace(/[^\p{L}\p{N}]+/gu, '');

/** The same value found by another candidate: elsewhere on the pages, or by another way (a label and the block). */
function statedTwice(candidate: FieldCandidate, candidates: readonly FieldCandidate[]): boolean {
  const offset = (c: FieldCandidate) => c.value.spans[0]?.offset;
  return candidates.some((c) => c !== candidate && c.category === candidate.category && key(c) === key(candidate) && (offset(c) !== offset(candidate) || c.label !== candidate.label));
}

/** The highest confidence the evidence for a field's chosen candidate allows. */
export function evidenceCap(field: InvoiceField, candidate: FieldCandidate, check: Check, candidates: readonly FieldCandidate[]): number {
  // A check passed, or an independent second reading agreeing: two kinds of evidence already.
  if (check === 'pass' || check === 'confirmed') return 1;
  const termLabel = candidate.label >= TERM_LABEL;
  const twice = statedTwice(candidate, candidates);
  switch (field) {
    case 'VendorName':
    case 'CustomerName':
      return twice ? 1 : SINGLE_EVIDENCE_CAP;
    case 'VendorTaxId':
    case 'CustomerTaxId': {
      if (candidate.hit?.definition.category === 'TaxRegistration') return REGISTRATION_CAP;
      // Another number of this party almost as likely (a header's and a footer's that differ): the evidence conflicts.
      const rival = candidates.some((c) => c.category === field && key(c) !== key(candidate) && c.score >= RIVAL_SHARE * candidate.score);
      return termLabel && !rival && VAT_FORM.test(candidate.contentNormalized.replace(/[\s.-]/g, '').toUpperCase()) ? 1 : SINGLE_EVIDENCE_CAP;
    }
    case 'SubTotal':
    case 'TotalTax':
    case 'InvoiceTotal':
      // Amounts: only the sums (or the words, the payment) confirm one.
      return SINGLE_EVIDENCE_CAP;
    case 'InvoiceId':
    case 'InvoiceDate':
    case 'DueDate':
      return termLabel || twice ? 1 : SINGLE_EVIDENCE_CAP;
    default:
      return 1;
  }
}

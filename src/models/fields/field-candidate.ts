/**
 * A value a page offers for a field of the invoice and receipt models, before the document's
 * candidates are weighed against each other (field-choice.ts), and what makes its reading unsure.
 */
import type { LabelHit } from './label-hits.js';
import type { InvoiceField } from './invoice-field-names.js';
import type { TextLine, TextRun } from '../page/text/text-lines.js';

/** Fields, and the amounts that check them: tax lines to add up, taxes withheld, cash tendered and change, rounding. */
export type CandidateCategory = InvoiceField | 'TaxLine' | 'Withheld' | 'Tendered' | 'Change' | 'Rounding' | 'CurrencyMention' | 'AmountInWords';

export interface FieldCandidate {
  category: CandidateCategory;
  value: TextRun;
  contentNormalized: string;
  /** 0..1: how surely this is the field: label strength × place × form. */
  score: number;
  /** Strength of the label that announced it; 0 for values found without one. */
  label: number;
  labelLine?: TextLine;
  hit?: LabelHit;
  /**
   * Not a value offered for the field but a second reading that confirms one: found by a check
   * independent of the field's label and place (a receipt's date in a form no order of day and
   * month can change, its total printed again on a payment line). A chosen value it equals counts
   * as checked (field-choice.ts); it is never chosen itself.
   */
  confirms?: boolean;
}

/** OCR's confidence below which a word is a smudge read as letters ("sartiodh Mlactdicalc" for a name on a low-resolution scan). */
export const SMUDGE_CONFIDENCE = 0.3;

/**
 * Whether the run's text still holds a word of letters OCR read with next to no confidence (marks
 * without letters, a stray "%", do not count; nor a word a second reading replaced).
 */
export function hasSmudgedWord(run: TextRun): boolean {
  return run.words.some((w) => w.confidence < SMUDGE_CONFIDENCE && /\p{L}{2}/u.test(w.text) && run.text.includes(w.text));
}

/** Payment lines surely read (an amount with its decimals, after a clear label) check the total. */
export const SURE_PAYMENT = 0.5;

/**
 * Vendor profiles (an extension beside the spec): what reviewers confirmed or corrected on the documents of one vendor
 * of a workspace, kept by the vendor-profiles module and handed to the invoice and receipt models
 * in their input (models never touch the database). This file holds the shapes both sides share
 * and the vendor's identity: its tax numbers, IBANs, normalised name and a fingerprint of the fixed
 * text of its page header.
 */
import { createHash } from 'node:crypto';
import type { Box } from '../page/text/geometry.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import { plain } from '../fields/normalize.js';
import { frameOf, keyOf, type ProfileLine, type ValueKind } from './vendor-profile-text.js';

export type { VendorProfileSource } from '../../domain/entities.js';

/** How each field's value is read and compared. */
export const FIELD_KINDS: Readonly<Record<InvoiceField, ValueKind>> = {
  InvoiceId: 'identifier',
  InvoiceDate: 'date',
  DueDate: 'date',
  VendorName: 'name',
  VendorAddress: 'name',
  VendorTaxId: 'taxId',
  CustomerName: 'name',
  CustomerTaxId: 'taxId',
  SubTotal: 'amount',
  TotalTax: 'amount',
  InvoiceTotal: 'amount',
  Currency: 'currency',
  IBAN: 'iban',
};

/**
 * The vendor's own values, the same on each of its documents: found on a page by the value itself
 * (in the reviewer's spelling, whatever the OCR made of it), not by an anchor.
 */
export const VENDOR_CONSTANTS: ReadonlySet<InvoiceField> = new Set(['VendorName', 'VendorAddress', 'VendorTaxId', 'IBAN']);

/** Where a value stands relative to the label that announces it. */
export interface LabelAnchor {
  /** The label as printed, and its key (keyOf). */
  text: string;
  key: string;
  /** inline: after the label on its line; left: in the next column of its row; above: under it. */
  place: 'inline' | 'left' | 'above';
  /**
   * The value's box relative to the label's box, in the label's character widths (labelMeasure):
   * left edges, vertical centres, right edges, and the value's size.
   */
  dx: number;
  dy: number;
  dxRight: number;
  width: number;
  height: number;
  /** The label's box as shares of the text frame: which of two identical labels ("Date", "Due date"). */
  region: Box;
}

/** What one review taught about one field: the value, its format, and the evidence that locates it. */
export interface FieldEvidence {
  kind: ValueKind;
  /** Normalised, as the reviewer confirmed or corrected it; and as printed (their spelling). */
  value: string;
  content: string;
  /** Identifiers: shapeOf the printed value. */
  shape?: string;
  /** Dates: printed with the month first. */
  monthFirst?: boolean;
  /** The page (chunk number) it was on, and whether that was the document's last. */
  chunk: number;
  lastPage: boolean;
  /** The value's box as shares of the page's text frame; absent when the value could not be found on the page. */
  region?: Box;
  label?: LabelAnchor;
  /** The reviewer changed the value the service had given (else confirmed it). */
  corrected: boolean;
  taskId: number;
  learnedOn: string;
  confirmations: number;
  corrections: number;
  /** 0..1: lowered each time a value read with this evidence is corrected, raised when one is confirmed. */
  weight: number;
}

export type ProfileFields = Partial<Record<InvoiceField, FieldEvidence>>;

/** A profile as the detect stage hands it to the model. */
export interface VendorProfileSnapshot {
  id: number;
  vendorName: string | null;
  nameKey: string | null;
  taxIds: string[];
  ibans: string[];
  fingerprint: string[];
  fields: ProfileFields;
  weight: number;
}

/** A tax number without its country prefix, for comparing "PT501964843" with "501 964 843". */
export function taxIdKey(taxId: string): string {
  return taxId.toUpperCase().replace(/[^A-Z0-9]/g, '').replace(/^[A-Z]{2}(?=\d)/, '');
}

/** The key of a vendor's name (keyOf): letters and digits, lower case, no diacritics. */
export function nameKeyOf(name: string): string | null {
  const key = keyOf(name);
  return key.length >= 4 ? key : null;
}

/** The header: the top share of the first page's text frame, where a vendor prints its letterhead. */
const HEADER_SHARE = 0.35;
const MAX_FINGERPRINT_WORDS = 64;

/**
 * A fingerprint of the page's fixed header text: hashes of the words (three letters or more, no
 * digits) of the lines at the top of the page, without the words of values that change from one
 * document to the next (`variable`: the keys of such words). Hashes, so that a profile listing
 * shows no text of the vendor's documents beyond its name.
 */
export function headerFingerprint(lines: readonly ProfileLine[], variable: ReadonlySet<string> = new Set()): string[] {
  const words = new Set<string>();
  for (const line of headerLines(lines)) {
    for (const word of plain(line.text).split(/[^\p{L}\p{N}]+/u)) {
      if (word.length < 3 || /\d/.test(word) || variable.has(word)) continue;
      words.add(word);
    }
  }
  return [...words].slice(0, MAX_FINGERPRINT_WORDS).map(wordHash).sort();
}

/** The lines of a page's header (its top share, where a vendor prints its letterhead). */
export function headerLines<L extends Pick<ProfileLine, 'box'>>(lines: readonly L[]): L[] {
  const frame = frameOf(lines as unknown as readonly ProfileLine[]);
  return lines.filter((line) => line.box.top - frame.top <= HEADER_SHARE * frame.height);
}

function wordHash(word: string): string {
  return createHash('sha1').update(word).digest('hex').slice(0, 10);
}

/** Share of a profile's header words the page shows too (0..1). */
export function fingerprintSimilarity(profile: readonly string[], page: readonly string[]): number {
  if (profile.length === 0) return 0;
  const shown = new Set(page);
  return profile.filter((hash) => shown.has(hash)).length / profile.length;
}

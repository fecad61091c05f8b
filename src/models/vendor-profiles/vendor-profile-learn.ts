/**
 * What a completed review teaches about its vendor: for each field the reviewer
 * confirmed or corrected, where the value is printed on the page, the label that announces it and
 * the value's place relative to that label, its region of the page and its format; and who the
 * vendor is. Pure functions over the page's lines, so that the learning (api side, from the stored
 * result) and the reading (the models, from the pages) measure alike.
 */
import type { Span } from '../../domain/entities.js';
import type { Box } from '../page/text/geometry.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import { findDates, plain } from '../fields/normalize.js';
import { namesField } from './field-vocabulary.js';
import {
  FIELD_KINDS,
  headerFingerprint,
  nameKeyOf,
  VENDOR_CONSTANTS,
  type FieldEvidence,
  type LabelAnchor,
  type VendorProfileSource,
} from './vendor-profile.js';
import { findValue, frameOf, labelMeasure, rangeBox, shapeOf, toRegion, valuesIn, type LineRange, type ProfileLine, type ValueKind } from './vendor-profile-text.js';

/** One page of the reviewed result: its chunk number, its lines, and the boxes of its item tables (no field is learned inside an item row). */
export interface ReviewedPage {
  chunk: number;
  lines: ProfileLine[];
  itemAreas?: Box[];
}

/** A typed field as the review left it. */
export interface ReviewedField {
  field: InvoiceField;
  chunk: number;
  content: string;
  contentNormalized: string | null;
  /** The reviewer changed the value the service had given. */
  corrected: boolean;
  /** Where the service had located the value (before any correction). */
  spans: Span[];
  box: Box | null;
  /** The reviewer pointed at where the value is printed: `box` and `spans` are that place. */
  placed?: boolean;
  /** How the service had read it, when a vendor profile was used. */
  source?: VendorProfileSource;
}

/** The evidence a review gives about one field, before it is merged with what the profile knew. */
export type LearnedEvidence = Omit<FieldEvidence, 'confirmations' | 'corrections' | 'weight'>;

export function reviewedValue(field: ReviewedField): string {
  return (field.contentNormalized ?? field.content).trim();
}

/** The evidence of one reviewed field, or undefined when it says nothing (an empty value). */
export function learnField(pages: readonly ReviewedPage[], field: ReviewedField, review: { taskId: number; learnedOn: Date; lastChunk: number }): LearnedEvidence | undefined {
  const kind = FIELD_KINDS[field.field];
  const value = reviewedValue(field);
  if (!value || !field.content.trim()) return undefined;
  const { taskId, learnedOn, lastChunk } = review;
  const page = pages.find((p) => p.chunk === field.chunk);
  const base: LearnedEvidence = {
    kind,
    value,
    content: field.content.trim(),
    ...formatOf(kind, field.content, value),
    chunk: field.chunk,
    lastPage: field.chunk === lastChunk,
    corrected: field.corrected,
    taskId,
    learnedOn: learnedOn.toISOString(),
  };
  if (!page) return base;
  const range = locate(page, field, kind, value);
  if (!range) return base;
  const line = page.lines[range.line]!;
  const box = rangeBox(line, range.start, range.end);
  if (!box) return base;
  const frame = frameOf(page.lines);
  const label = labelAnchor(page.lines, range, box, frame, (text) => namesField(field.field, text) && !isAmountDue(field.field, text));
  return { ...base, region: toRegion(box, frame), ...(label ? { label } : {}) };
}

/** Identifier shape and date order: what the next document's value must look like. */
function formatOf(kind: ValueKind, content: string, value: string): Pick<FieldEvidence, 'shape' | 'monthFirst'> {
  if (kind === 'identifier' || kind === 'taxId') return { shape: shapeOf(content) };
  if (kind === 'date') {
    const dayFirst = findDates(content, { monthFirst: false })[0]?.iso === value;
    const monthFirst = findDates(content, { monthFirst: true })[0]?.iso === value;
    return { monthFirst: monthFirst && !dayFirst };
  }
  return {};
}

/**
 * Where the value is printed. Where the reviewer pointed, when they did: the value's occurrence in
 * that box, else the words in it. Otherwise the occurrence that best fits the field, the one where
 * the service located it counting as the nearest: of the value's occurrences, one outside the item
 * table and its rows (a subtotal's figure recurs in a discount line, "5,00% sur 100,00 EUR", a date
 * in an item's service period), then one a label of its own field announces (inline, to its left
 * or as its column's head; for a total, not the amount left to pay, which equals it only while
 * nothing was paid in advance), then one printed as typed, then one any label announces, the
 * nearest to the service's place. A value the service read right where it is announced as the
 * field stays where it was.
 */
function locate(page: ReviewedPage, field: ReviewedField, kind: ValueKind, value: string): LineRange | undefined {
  const { lines } = page;
  const frame = frameOf(lines);
  const boxOf = (range: LineRange) => rangeBox(lines[range.line]!, range.start, range.end);
  if (field.placed && field.box) {
    const place = field.box;
    const inPlace = findValue(lines, kind, value, field.content).filter((range) => {
      const box = boxOf(range);
      return box !== undefined && contains(place, box);
    });
    inPlace.sort((a, b) => Number(b.exact) - Number(a.exact));
    return inPlace[0] ?? lineRangeOfSpan(lines, field.spans[0]);
  }
  const located = field.corrected ? undefined : lineRangeOfSpan(lines, field.spans[0]);
  const found = findValue(lines, kind, value, field.content);
  if (found.length === 0) return located;
  const items = page.itemAreas ?? [];
  const target = located ? boxOf(located) : field.box && field.box.width > 0 ? field.box : undefined;
  const scored = found.map((range) => {
    const box = boxOf(range);
    const labels = box ? labelsAround(lines, range, box, frame) : [];
    const own = labels.filter((l) => namesField(field.field, l.text));
    const distance = box && target ? Math.hypot(box.left - target.left, box.top - target.top) : 0;
    // An item table's area may take in the totals under it: a value only it holds is still the field's.
    const inItems = (box !== undefined && items.some((area) => contains(area, box))) || isItemRow(lines[range.line]!, range);
    return {
      range,
      outside: inItems ? 0 : 1,
      own: own.some((l) => !isAmountDue(field.field, l.text)) ? 2 : own.length ? 1 : 0,
      labelled: labels.length ? 1 : 0,
      distance,
      exact: range.exact ? 1 : 0,
    };
  });
  scored.sort((a, b) => b.outside - a.outside || b.own - a.own || b.exact - a.exact || b.labelled - a.labelled || a.distance - b.distance);
  return scored[0]!.range;
}

/**
 * A row of an item table, or of a discount, charge or tax breakdown: a line that holds a
 * percentage and two amounts or more besides the value ("REMISE 5,00% sur 100,00 EUR -5,00").
 * A totals line holds one amount beside its rate at most ("MwSt 19 % 19,00").
 */
function isItemRow(line: ProfileLine, range: LineRange): boolean {
  if (!/\d\s*%/.test(line.text)) return false;
  const others = valuesIn('amount', line.text).filter((v) => v.end <= range.start || v.start >= range.end);
  return others.length >= 2;
}

/** What is left to pay: a total's value only while nothing was paid in advance. */
const AMOUNT_DUE = /(?:^|[^\p{L}])(?:net\s*(?:a|&|to)\s*pay(?:er)?|(?:reste\s*)?[a&]\s*payer|zu\s*zahlen|zahlbetrag|restbetrag|amount\s*(?:due|payable|to\s*pay)|balance(?:\s*due)?|te\s*betalen|a\s*pagar|da\s*pagare)(?![\p{L}])/u;

function isAmountDue(field: InvoiceField, label: string): boolean {
  return field === 'InvoiceTotal' && AMOUNT_DUE.test(plain(label));
}

/** The centre of `inner` lies in `outer`. */
function contains(outer: Box, inner: Box): boolean {
  const x = inner.left + inner.width / 2;
  const y = inner.top + inner.height / 2;
  return x >= outer.left && x <= outer.left + outer.width && y >= outer.top && y <= outer.top + outer.height;
}

function lineRangeOfSpan(lines: readonly ProfileLine[], span: Span | undefined): LineRange | undefined {
  if (!span) return undefined;
  const index = lines.findIndex((l) => l.spans[0] && span.offset >= l.spans[0].offset && span.offset < l.spans[0].offset + l.spans[0].length);
  if (index < 0) return undefined;
  const line = lines[index]!;
  const start = span.offset - line.spans[0]!.offset;
  return { line: index, start, end: Math.min(line.text.length, start + span.length) };
}

/** Words a label is made of: letters, or a rate ("23%"); marks between them ("@", "-") are part of it. */
function labelWordKind(text: string): 'label' | 'mark' | 'value' {
  if (!/[\p{L}\p{N}]/u.test(text)) return 'mark';
  if (!/\p{L}/u.test(text) && !/%/.test(text)) return 'value';
  return /\d/.test(text) && !/%/.test(text) ? 'value' : 'label';
}

/** The label words at the end of `words` (before a value), as a range of the line; at most four words. */
function trailingLabel(line: ProfileLine, words: readonly { start: number; end: number; text: string }[]): { start: number; end: number } | undefined {
  let start: number | undefined;
  let end: number | undefined;
  let count = 0;
  for (let i = words.length - 1; i >= 0 && count < 4; i--) {
    const word = words[i]!;
    const kind = labelWordKind(word.text);
    if (kind === 'value') break;
    if (kind === 'mark') {
      if (end === undefined) continue;
      start = word.start;
      continue;
    }
    end ??= word.end;
    start = word.start;
    count++;
  }
  if (start === undefined || end === undefined) return undefined;
  const text = line.text.slice(start, end);
  return /\p{L}.*\p{L}|\p{L}{2}/u.test(text) ? { start, end } : undefined;
}

/** The words of a line as ranges of its text, optionally up to an offset (a word cut there keeps its part before it). */
function wordRanges(line: ProfileLine, upTo = Infinity): Array<{ start: number; end: number; text: string }> {
  const base = line.spans[0]?.offset ?? 0;
  return line.words
    .map((w) => ({ start: w.span.offset - base, end: Math.min(w.span.offset - base + w.span.length, upTo) }))
    .filter((w) => w.end > w.start)
    .map((w) => ({ ...w, text: line.text.slice(w.start, w.end) }));
}

const centreY = (box: Box) => box.top + box.height / 2;

/**
 * The labels around a value: the words before it on its line, the end of the line to its left in
 * the same row, the line above it in its column; each with the value's place relative to it in the
 * label's character widths.
 */
export function labelsAround(lines: readonly ProfileLine[], range: LineRange, valueBox: Box, frame: Box): LabelAnchor[] {
  const found: LabelAnchor[] = [];
  const push = (anchor: LabelAnchor | undefined) => anchor && found.push(anchor);
  const line = lines[range.line]!;
  const inline = trailingLabel(line, wordRanges(line, range.start));
  if (inline) push(anchorOf(line, inline, 'inline', valueBox, frame));

  const h = valueBox.height;
  const left = lines
    .filter((l, i) => i !== range.line && l.box.left + l.box.width <= valueBox.left + 0.5 * h && Math.abs(centreY(l.box) - centreY(valueBox)) <= 0.5 * Math.min(l.box.height, h))
    .sort((a, b) => b.box.left + b.box.width - (a.box.left + a.box.width))[0];
  const leftLabel = left && trailingLabel(left, wordRanges(left));
  if (left && leftLabel) push(anchorOf(left, leftLabel, 'left', valueBox, frame));

  const above = lines
    .filter((l, i) => {
      const gap = valueBox.top - (l.box.top + l.box.height);
      const overlaps = l.box.left < valueBox.left + valueBox.width + h && l.box.left + l.box.width > valueBox.left - h;
      return i !== range.line && gap >= -0.3 * h && gap <= 2.5 * h && overlaps;
    })
    .sort((a, b) => b.box.top - a.box.top)[0];
  if (above) {
    // The part of the line above that heads the value's column (a header row holds several labels).
    const column = wordRanges(above).filter((w) => {
      const box = rangeBox(above, w.start, w.end);
      return box && box.left < valueBox.left + valueBox.width + 2 * h && box.left + box.width > valueBox.left - 2 * h;
    });
    const aboveLabel = column.length ? trailingLabel(above, column) : undefined;
    if (aboveLabel) push(anchorOf(above, aboveLabel, 'above', valueBox, frame));
  }
  return found;
}

/**
 * The label that announces a value: of the labels around it (labelsAround), the first that
 * `preferred` accepts (a label of the field's own vocabulary: "TOTAL HT" heading a column rather
 * than the end of a sentence printed on the values' line), else the nearest: the words before it on
 * its line, else the line to its left, else the line above.
 */
export function labelAnchor(lines: readonly ProfileLine[], range: LineRange, valueBox: Box, frame: Box, preferred?: (label: string) => boolean): LabelAnchor | undefined {
  const labels = labelsAround(lines, range, valueBox, frame);
  return (preferred && labels.find((l) => preferred(l.text))) ?? labels[0];
}

function anchorOf(line: ProfileLine, label: { start: number; end: number }, place: LabelAnchor['place'], valueBox: Box, frame: Box): LabelAnchor | undefined {
  const measure = labelMeasure(line, label.start, label.end);
  if (!measure) return undefined;
  const { box, unit } = measure;
  const text = line.text.slice(label.start, label.end).trim();
  const key = plain(text).replace(/[^\p{L}\p{N}]+/gu, '');
  if (key.length < 2) return undefined;
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return {
    text,
    key,
    place,
    dx: round((valueBox.left - box.left) / unit),
    dy: round((centreY(valueBox) - centreY(box)) / unit),
    dxRight: round((valueBox.left + valueBox.width - (box.left + box.width)) / unit),
    width: round(valueBox.width / unit),
    height: round(valueBox.height / unit),
    region: roundBox(toRegion(box, frame)),
  };
}

function roundBox(box: Box): Box {
  const r = (n: number) => Math.round(n * 10_000) / 10_000;
  return { left: r(box.left), top: r(box.top), width: r(box.width), height: r(box.height) };
}

/** The vendor's identity as the review confirmed it. */
export interface LearnedIdentity {
  vendorName: string | null;
  nameKey: string | null;
  taxIds: string[];
  ibans: string[];
  fingerprint: string[];
}

/** Fields whose words change from one document of a vendor to the next: kept out of the header fingerprint. */
const VARIABLE_FIELDS: ReadonlySet<InvoiceField> = new Set(['InvoiceId', 'InvoiceDate', 'DueDate', 'CustomerName', 'CustomerTaxId', 'SubTotal', 'TotalTax', 'InvoiceTotal']);

export function learnIdentity(pages: readonly ReviewedPage[], fields: readonly ReviewedField[]): LearnedIdentity {
  const valueOf = (name: InvoiceField) => fields.find((f) => f.field === name);
  const vendorName = valueOf('VendorName')?.content.trim() || null;
  const taxId = valueOf('VendorTaxId');
  const iban = valueOf('IBAN');
  const variable = new Set(fields.filter((f) => VARIABLE_FIELDS.has(f.field)).flatMap((f) => plain(f.content).split(/[^\p{L}\p{N}]+/u)));
  const first = [...pages].sort((a, b) => a.chunk - b.chunk)[0];
  return {
    vendorName,
    nameKey: vendorName ? nameKeyOf(vendorName) : null,
    taxIds: taxId ? [reviewedValue(taxId).replace(/[\s.-]/g, '').toUpperCase()].filter((v) => v.length >= 6) : [],
    ibans: iban ? [reviewedValue(iban).replace(/[\s-]/g, '').toUpperCase()].filter((v) => v.length >= 15) : [],
    fingerprint: first ? headerFingerprint(first.lines, variable) : [],
  };
}

/** A field's weight falls by half with each correction of a value the profile gave, and recovers by a quarter with each confirmation. */
const CORRECTED_FACTOR = 0.5;
const CONFIRMED_STEP = 0.25;
/** A field the general model got wrong again, after the profile's own values for it lost weight, starts over on probation. */
const PROBATION_WEIGHT = 0.5;

/**
 * The profile's evidence for a field after a review: the most recent confirmed evidence wins,
 * except that a value the review could not find on its page leaves the earlier place (constants
 * need none: they are found by their value); counters and weight carry on.
 */
export function mergeEvidence(field: InvoiceField, previous: FieldEvidence | undefined, learned: LearnedEvidence, servedByProfile: boolean): FieldEvidence {
  let weight = previous?.weight ?? 1;
  if (servedByProfile) weight = learned.corrected ? weight * CORRECTED_FACTOR : Math.min(1, weight + CONFIRMED_STEP);
  else if (learned.corrected) weight = Math.max(weight, PROBATION_WEIGHT);
  const keepPlace = !learned.region && previous?.region && !VENDOR_CONSTANTS.has(field);
  return {
    ...learned,
    ...(keepPlace ? { region: previous.region, ...(previous.label ? { label: previous.label } : {}) } : {}),
    confirmations: (previous?.confirmations ?? 0) + (learned.corrected ? 0 : 1),
    corrections: (previous?.corrections ?? 0) + (learned.corrected ? 1 : 0),
    weight: Math.round(weight * 1000) / 1000,
  };
}

/**
 * A document read with its vendor's profile: which profile is the document's vendor's
 * (its tax number or IBAN printed on the page, else its name and header fingerprint), and each
 * field the profile knows, found the way the reviewer's evidence says: the vendor's own values by
 * the value itself, the others by their label and their place relative to it (in the label's
 * heights, so a shifted or rescaled scan reads alike), else by their region of the page.
 */
import type { PageRef } from '../page/text/entities.js';
import { subRun } from '../fields/field-values.js';
import type { Box } from '../page/text/geometry.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import type { PageText, TextLine, TextRun } from '../page/text/text-lines.js';
import {
  fingerprintSimilarity,
  headerFingerprint,
  headerLines,
  nameKeyOf,
  taxIdKey,
  VENDOR_CONSTANTS,
  type FieldEvidence,
  type VendorProfileSnapshot,
} from './vendor-profile.js';
import {
  DIGIT_FOR,
  editDistance,
  findLabel,
  findValue,
  frameOf,
  fromRegion,
  identifierValue,
  labelMeasure,
  LETTER_FOR,
  ocrTolerance,
  keyedText,
  printsName,
  rangeBox,
  shapedThroughOcr,
  shapeOf,
  toRegion,
  valuesIn,
  type FoundValue,
  type KeyedText,
  type LineRange,
} from './vendor-profile-text.js';
import { fieldLabelsIn } from './field-vocabulary.js';
import { vatCheckDigits } from '../fields/vat-check-digits.js';

export interface ProfilePage {
  ref: PageRef;
  text: PageText;
}

/** A field as the profile found it. */
export interface ProfileReading {
  page: PageRef;
  run: TextRun;
  contentNormalized: string;
  /** 0..1: how well the page matched the evidence (label found as printed, value where expected). */
  fit: number;
  /** Found by the value itself (a vendor's constant), as printed or within OCR's tolerance. */
  byValue: boolean;
  exact: boolean;
}

/** The document's vendor among the profiles, how it was recognised, and how far its profile is trusted. */
export interface ProfileMatch {
  profile: VendorProfileSnapshot;
  by: 'taxId' | 'iban' | 'name';
  similarity: number;
  /**
   * sure: the vendor's tax number or IBAN with its name or most of its letterhead, or its name with
   * its letterhead; the profile's readings may replace the general model's. weak: a number with
   * little else (a placeholder number two sellers print, a number beside another seller's name),
   * or the name heading a page that shares little else with the vendor's reviewed one (a return
   * slip, a letter): the profile confirms the general model's readings and fills what it lacks,
   * never replaces them.
   */
  trust: 'sure' | 'weak';
}

/** Below this share of its header words on the page, a name alone does not make the vendor. */
const NAME_MATCH_SIMILARITY = 0.4;
/** ...and a tax number or IBAN needs the name or this much of the header (a customer's number printed on another vendor's invoice). */
const NUMBER_MATCH_SIMILARITY = 0.25;
/** A number with this much of the header and no name is the vendor's letterhead: sure; with less, weak. */
const LETTERHEAD_SIMILARITY = 0.5;

/**
 * The profile of the document's vendor, if any, as a graded decision: what the page shows of the
 * vendor (its tax number or IBAN standing on its own, its name as whole words, its header words)
 * against what says it is another seller (`pageSeller`: the name the general model read as the
 * seller, when the profile's name is printed nowhere on the page). Where two profiles share a
 * number, the one whose name the page prints wins.
 */
export function matchVendorProfile(profiles: readonly VendorProfileSnapshot[], pages: readonly ProfilePage[], pageSeller?: string): ProfileMatch | undefined {
  if (profiles.length === 0 || pages.length === 0) return undefined;
  const lines = pages.flatMap((p) => p.text.lines);
  // Numbers as printed in groups ("501 964 843", "PT50 0002 ...") joined, so they compare with the stored ones.
  const joined = lines.map((l) => l.text.toUpperCase().replace(/(?<=[A-Z0-9])[\s.\-/](?=[0-9])/g, ''));
  /** The number stands on its own: no digit or letter glued after it, no digit before it (a tax number inside an IBAN is none). */
  const shows = (key: string) => joined.some((text) => new RegExp(`(?<![0-9])${key}(?![0-9A-Z])`).test(text));
  const page = headerFingerprint(pages[0]!.text.lines);
  const keyed = lines.map((l) => keyedText(l.text));
  const header = new Set(headerLines(pages[0]!.text.lines));
  let best: (ProfileMatch & { score: number }) | undefined;
  for (const profile of profiles) {
    const similarity = fingerprintSimilarity(profile.fingerprint, page);
    const taxId = profile.taxIds.some((id) => {
      const key = taxIdKey(id);
      return key.length >= 8 && /^[A-Z0-9]+$/.test(key) && shows(key);
    });
    const iban = profile.ibans.some((value) => /^[A-Z0-9]+$/.test(value) && shows(value));
    const name = profile.nameKey !== null && keyed.some((line) => nameShown(line, profile.nameKey!));
    const otherSeller = !name && namesAnotherSeller(pageSeller, profile);
    let score = 0;
    let trust: ProfileMatch['trust'] = 'sure';
    let by: ProfileMatch['by'] = 'name';
    if (taxId || iban) {
      by = taxId ? 'taxId' : 'iban';
      if (name) score = 4 + similarity;
      else if (!otherSeller && similarity >= NUMBER_MATCH_SIMILARITY) {
        score = 3 + similarity;
        if (similarity < LETTERHEAD_SIMILARITY) trust = 'weak';
      } else if (otherSeller && similarity >= LETTERHEAD_SIMILARITY) {
        // The vendor's number and letterhead beside another name: the seller may have been renamed, or the general model misread it.
        score = 2 + similarity;
        trust = 'weak';
      }
    } else if (name && similarity >= NAME_MATCH_SIMILARITY) score = 1 + similarity;
    else if (name && !namesAnotherSeller(pageSeller, profile) && keyed.some((line, i) => header.has(lines[i]!) && nameShown(line, profile.nameKey!))) {
      // Its name as the letterhead of another kind of document (a return slip, a letter): the vendor's, but little of its layout.
      score = 0.5 + similarity;
      trust = 'weak';
    }
    if (score === 0) continue;
    if (!best || score > best.score || (score === best.score && profile.weight > best.profile.weight)) best = { profile, by, similarity, trust, score };
  }
  return best && { profile: best.profile, by: best.by, similarity: best.similarity, trust: best.trust };
}

/** The line shows the name: it prints it as whole words, or it is the name as OCR misread it. */
function nameShown(line: KeyedText, nameKey: string): boolean {
  if (printsName(line, nameKey)) return true;
  const lineKey = line.key;
  const tolerance = ocrTolerance(nameKey.length);
  return tolerance > 0 && Math.abs(lineKey.length - nameKey.length) <= tolerance && editDistance(lineKey, nameKey, tolerance) <= tolerance;
}

/**
 * The general model read a seller's name that is not the profile's: neither holds the other as
 * whole words ("MUSTERLIEFERANT GMBH" is not "Lieferant GmbH", "Acme Trading" may be "Acme Trading
 * GmbH"), nor is one the other as OCR misread it.
 */
export function namesAnotherSeller(pageSeller: string | undefined, profile: Pick<VendorProfileSnapshot, 'vendorName' | 'nameKey'>): boolean {
  if (pageSeller === undefined || profile.nameKey === null || profile.vendorName === null) return false;
  const sellerKey = nameKeyOf(pageSeller);
  if (sellerKey === null) return false;
  return !nameShown(keyedText(pageSeller), profile.nameKey) && !nameShown(keyedText(profile.vendorName), sellerKey);
}

/** A field weighing less than this (its values were corrected again and again) is left to the general model. */
export const MIN_FIELD_WEIGHT = 0.3;
/** A reading that fits the evidence less than this is no reading. */
const MIN_FIT = 0.35;

/** The fields the profile finds on the document. */
export function readProfileFields(profile: VendorProfileSnapshot, pages: readonly ProfilePage[]): Map<InvoiceField, ProfileReading> {
  const readings = new Map<InvoiceField, ProfileReading>();
  for (const [field, evidence] of Object.entries(profile.fields) as Array<[InvoiceField, FieldEvidence]>) {
    if (!evidence || evidence.weight < MIN_FIELD_WEIGHT || !isLocatable(field, evidence)) continue;
    for (const page of pagesToSearch(evidence, pages)) {
      const reading = readOnPage(field, evidence, page);
      if (reading && reading.fit >= MIN_FIT) {
        readings.set(field, reading);
        break;
      }
    }
  }
  return readings;
}

/** The profile can look for the field: a constant by its value, the others by where the review found them. */
export function isLocatable(field: InvoiceField, evidence: FieldEvidence): boolean {
  return VENDOR_CONSTANTS.has(field) || field === 'Currency' || evidence.region !== undefined;
}

/** The page the evidence was on (the same position, or the last page when it was the last), then the others. */
function pagesToSearch(evidence: FieldEvidence, pages: readonly ProfilePage[]): ProfilePage[] {
  const first = evidence.lastPage ? pages.at(-1) : pages.find((p) => p.ref.chunkNumber === evidence.chunk);
  return first ? [first, ...pages.filter((p) => p !== first)] : [...pages];
}

function readOnPage(field: InvoiceField, learned: FieldEvidence, page: ProfilePage): ProfileReading | undefined {
  const lines = page.text.lines;
  const frame = frameOf(lines);
  // A vendor's documents in another language may write dates the other way round: the page's own order, where its dates show it, wins.
  const order = learned.kind === 'date' ? pageMonthFirst(lines) : undefined;
  const evidence = order === undefined ? learned : { ...learned, monthFirst: order };
  if (VENDOR_CONSTANTS.has(field)) {
    // A tax number not printed as learned: the seller may print another (a new registration, another of its companies) where its label puts it.
    const own = byValue(evidence, page, frame);
    if (own || evidence.kind !== 'taxId' || !evidence.label) return own;
    return conformedOrNone(byLabel(evidence, page, frame), evidence) ?? conformedOrNone(besideStandInLabel(field, evidence, page, frame), evidence);
  }
  const labelled = evidence.label && byLabel(evidence, page, frame);
  // A label learned and not found: another layout or another kind of document from the vendor (a letter, a return slip), where the
  // region alone says little; the reading may fill a field the general model missed, it is not firm enough to replace one.
  const placed = !labelled && evidence.region ? byRegion(evidence, page, frame) : undefined;
  const found = labelled || (placed && (evidence.label ? { ...placed, fit: placed.fit * LABEL_MISSING } : placed));
  // A vendor bills in its currency: where no label places it, the mention of it.
  if (!found) return field === 'Currency' ? byValue(evidence, page, frame) : undefined;
  return evidence.kind === 'identifier' || evidence.kind === 'taxId' ? conformed(found, evidence) : found;
}

/** A field learned beside a label whose label is absent from the page is read by its region this much less surely. */
const LABEL_MISSING = 0.6;

function conformedOrNone(reading: ProfileReading | undefined, evidence: FieldEvidence): ProfileReading | undefined {
  return reading && conformed(reading, evidence);
}

/**
 * The order of the page's dates where some show it: a date only month-first reads ("11/17/2017")
 * and none only day-first reads ("17/11/2017"), or the other way round; undefined when no date
 * tells, or when they disagree.
 */
export function pageMonthFirst(lines: readonly { text: string }[]): boolean | undefined {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const line of lines) {
    for (const m of line.text.matchAll(/(?<![\d.,/-])(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?![\d.,/-]*\d)/g)) {
      const [first, second] = [Number(m[1]), Number(m[2])];
      if (first > 12 && first <= 31 && second >= 1 && second <= 12) dayFirst++;
      else if (second > 12 && second <= 31 && first >= 1 && first <= 12) monthFirst++;
    }
  }
  if (monthFirst > 0 && dayFirst === 0) return true;
  if (dayFirst > 0 && monthFirst === 0) return false;
  return undefined;
}

/**
 * A scanned identifier read as the vendor prints its identifiers: where it has the length of the
 * learned value and only OCR's usual confusions stand between them position by position (an O
 * where the learned value has a digit, a 0 where it has a letter), the confusions are undone.
 * A text layer's characters are what was printed, and are left alone.
 */
function conformed(reading: ProfileReading, evidence: FieldEvidence): ProfileReading {
  const text = reading.run.text;
  const learned = evidence.content;
  if (reading.run.words.every((w) => w.confidence >= 0.999) || text.length !== learned.length) return reading;
  let fixed = '';
  for (let i = 0; i < text.length; i++) {
    const [c, want] = [text[i]!, learned[i]!];
    const digitWanted = /\d/.test(want);
    const letterWanted = /\p{L}/u.test(want);
    if (digitWanted && !/\d/.test(c)) fixed += DIGIT_FOR[c] ?? c;
    else if (letterWanted && !/\p{L}/u.test(c)) fixed += LETTER_FOR[c] === undefined ? c : want === want.toLowerCase() ? LETTER_FOR[c]!.toLowerCase() : LETTER_FOR[c]!;
    else fixed += c;
  }
  if (fixed === text || shapeOf(fixed) !== shapeOf(learned)) return reading;
  const value = identifierValue(evidence.kind, fixed);
  return { ...reading, run: { ...reading.run, text: fixed }, contentNormalized: value };
}

const centre = (box: Box) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });

function readingOf(page: ProfilePage, line: TextLine, value: FoundValue, fit: number, byValueFound: boolean, exact: boolean): ProfileReading | undefined {
  const run = subRun(page.text, line, value.start, value.end - value.start);
  // A value read through OCR's confusions gives the characters it stands for.
  return run && { page: page.ref, run: value.text ? { ...run, text: value.text } : run, contentNormalized: value.value, fit, byValue: byValueFound, exact };
}

/** Words read by OCR (a text layer's are certain). */
const isScanned = (line: TextLine) => line.words.some((w) => w.confidence < 0.999);

/**
 * A vendor's own value (name, address, tax number, IBAN; its currency) where the page prints it,
 * the occurrence nearest the evidence's region; given in the reviewer's spelling, whatever the
 * OCR made of it. Numbers are read within OCR's tolerance on scans only.
 */
function byValue(evidence: FieldEvidence, page: ProfilePage, frame: Box): ProfileReading | undefined {
  const lines = page.text.lines;
  // A text layer prints what it holds: a number within OCR's tolerance of the vendor's there is another
  // number (the IBAN of another account, "FR20 1254 ..." for "FR76 1254 ..."); a name may be typed otherwise.
  const found = findValue(lines, evidence.kind, evidence.value, evidence.content).filter((r) => r.exact || evidence.kind === 'name' || isScanned(lines[r.line]!));
  if (found.length === 0) return undefined;
  const target = evidence.region && centre(fromRegion(evidence.region, frame));
  const distance = (r: (typeof found)[number]) => {
    const box = rangeBox(lines[r.line]!, r.start, r.end);
    return box && target ? Math.hypot(centre(box).x - target.x, centre(box).y - target.y) : 0;
  };
  const best = found.reduce((a, b) => (distance(b) < distance(a) ? b : a));
  const reading = readingOf(page, lines[best.line]!, { start: best.start, end: best.end, value: evidence.value }, best.exact ? 1 : 0.85, true, best.exact);
  return reading && { ...reading, run: { ...reading.run, text: evidence.content } };
}

/**
 * The value its label announces: every place the label is printed (as learned, or within OCR's
 * tolerance) predicts where the value is (the learned offsets, in this label's height); the value
 * of the field's kind and shape nearest a prediction, from the label nearest the learned region.
 */
function byLabel(
  evidence: FieldEvidence,
  page: ProfilePage,
  frame: Box,
  occurrences: ReadonlyArray<LineRange & { exact: boolean }> = findLabel(page.text.lines, evidence.label!.key),
  accepts: (value: FoundValue) => boolean = () => true,
): ProfileReading | undefined {
  const anchor = evidence.label!;
  const lines = page.text.lines;
  let best: { line: TextLine; value: FoundValue; fit: number } | undefined;
  for (const occurrence of occurrences) {
    const measure = labelMeasure(lines[occurrence.line]!, occurrence.start, occurrence.end);
    if (!measure) continue;
    const { box: label, unit: u } = measure;
    // Positions in the label's character widths (as learned); distances judged in its height.
    const h = label.height;
    const predictedCentre = centre(label).y + anchor.dy * u;
    const predicted = { left: label.left + anchor.dx * u, top: predictedCentre - (anchor.height * u) / 2, width: anchor.width * u, height: anchor.height * u };
    const predictedRight = label.left + label.width + anchor.dxRight * u;
    const labelRegion = centre(toRegion(label, frame));
    const learnedRegion = centre(anchor.region);
    const regionFit = 1 / (1 + (Math.hypot(labelRegion.x - learnedRegion.x, labelRegion.y - learnedRegion.y) / 0.15) ** 2);
    const labelFit = occurrence.exact ? 1 : 0.85;
    lines.forEach((line, index) => {
      const sameLine = index === occurrence.line;
      if (anchor.place === 'inline' && !sameLine) return;
      if (!sameLine && Math.abs(centre(line.box).y - centre(predicted).y) > 1.2 * Math.max(h, predicted.height)) return;
      const from = sameLine ? occurrence.end : 0;
      for (const value of valuesOf(evidence, line.text.slice(from), isScanned(line))) {
        if (!accepts(value)) continue;
        const shifted = { ...value, start: value.start + from, end: value.end + from };
        const box = rangeBox(line, shifted.start, shifted.end);
        if (!box) continue;
        const dy = Math.abs(centre(box).y - centre(predicted).y) / h;
        const dx = Math.min(Math.abs(box.left - predicted.left), Math.abs(box.left + box.width - predictedRight)) / h;
        if (anchor.place !== 'inline' && (dy > 1.2 || dx > Math.max(4, (0.6 * anchor.width * u) / h))) continue;
        const position = 1 / (1 + dy * dy + (dx / 4) ** 2);
        const fit = labelFit * position * (0.6 + 0.4 * regionFit);
        if (!best || fit > best.fit) best = { line, value: shifted, fit };
      }
    });
  }
  return best && readingOf(page, best.line, best.value, best.fit, false, true);
}

/** How far (in shares of the text frame) a stand-in label may stand from where the review found the learned one. */
const STAND_IN_REACH = 0.15;

/**
 * A tax number the vendor prints where the review found its own, beside another label of the
 * field's vocabulary ("N° TVA :" where the reviewed invoice printed "N° TVA intra :"): a new
 * registration, or the number of another of its companies, on a variant of its template. Only a
 * number whose check digits hold (vat-check-digits.ts) counts: a label's neighbourhood alone does
 * not make a number a VAT id. The label not being the learned one, the reading is less sure
 * (byLabel's fit for an inexact label), never a value a reviewer would skip.
 */
function besideStandInLabel(field: InvoiceField, evidence: FieldEvidence, page: ProfilePage, frame: Box): ProfileReading | undefined {
  const lines = page.text.lines;
  const learned = centre(evidence.label!.region);
  const occurrences = lines.flatMap((line, index) =>
    fieldLabelsIn(field, line.text).flatMap(({ start, end }) => {
      const box = rangeBox(line, start, end);
      const at = box && centre(toRegion(box, frame));
      return at && Math.hypot(at.x - learned.x, at.y - learned.y) <= STAND_IN_REACH ? [{ line: index, start, end, exact: false }] : [];
    }),
  );
  return occurrences.length ? byLabel(evidence, page, frame, occurrences, (value) => vatCheckDigits(value.value) === true) : undefined;
}

/** Without a label: the value of the field's kind nearest the region the review found it in, less surely. */
function byRegion(evidence: FieldEvidence, page: ProfilePage, frame: Box): ProfileReading | undefined {
  const predicted = fromRegion(evidence.region!, frame);
  const h = Math.max(predicted.height, 1e-6);
  let best: { line: TextLine; value: FoundValue; fit: number } | undefined;
  for (const line of page.text.lines) {
    if (Math.abs(centre(line.box).y - centre(predicted).y) > 1.5 * Math.max(h, line.box.height)) continue;
    for (const value of valuesOf(evidence, line.text, isScanned(line))) {
      const box = rangeBox(line, value.start, value.end);
      if (!box) continue;
      const dy = Math.abs(centre(box).y - centre(predicted).y) / h;
      const dx = Math.min(Math.abs(box.left - predicted.left), Math.abs(box.left + box.width - (predicted.left + predicted.width))) / frame.width;
      if (dy > 1.5 || dx > 0.1) continue;
      const fit = 0.7 / (1 + dy * dy + (dx / 0.03) ** 2);
      if (!best || fit > best.fit) best = { line, value, fit };
    }
  }
  return best && readingOf(page, best.line, best.value, best.fit, false, true);
}

/** Values of the evidence's kind in a text, of its shape and about its length; on a scan, read through OCR's confusions when none is. */
function valuesOf(evidence: FieldEvidence, text: string, scanned: boolean): FoundValue[] {
  const found = valuesIn(evidence.kind, text, {
    ...(evidence.monthFirst !== undefined ? { monthFirst: evidence.monthFirst } : {}),
    ...(evidence.shape ? { shape: evidence.shape } : {}),
  });
  if (evidence.kind !== 'identifier' && evidence.kind !== 'taxId') return found;
  const length = evidence.content.length;
  const nearLength = (v: FoundValue) => Math.abs(v.end - v.start - length) <= Math.max(3, 0.5 * length);
  const shaped = found.filter(nearLength);
  if (shaped.length || !scanned || !evidence.shape) return shaped;
  return shapedThroughOcr(evidence.kind, text, evidence.shape, evidence.content).filter(nearLength);
}

/**
 * The fields of a document whose vendor has a profile: the profile's reading first,
 * checked against the general model's and the document's own consistency; the general model fills
 * what the profile lacks. The amounts are chosen again with the profile's readings as the
 * strongest candidates, so that subtotal + tax = total still decides between them; a field the
 * two readings disagree on, or that the profile expected and did not find (a changed layout), is
 * never given at a confidence a reviewer would skip. The profile's reading replaces the general
 * model's only where both the match is sure (vendor-profile-read.ts) and the reading firm: the
 * vendor's own value found on the page, or a value where its learned label puts it; a weak match,
 * or a reading whose label is absent (another kind of document from the vendor), only confirms the
 * general model's reading or fills one it lacks.
 */
import { chooseFields, confidenceOf, type ChosenField, type PagedCandidate } from '../fields/field-choice.js';
import type { InvoiceField } from '../fields/invoice-field-names.js';
import { capImpossible } from '../fields/impossible-values.js';
import { FIELD_KINDS, VENDOR_CONSTANTS, type VendorProfileSnapshot, type VendorProfileSource } from './vendor-profile.js';
import { isLocatable, matchVendorProfile, MIN_FIELD_WEIGHT, readProfileFields, type ProfilePage, type ProfileReading } from './vendor-profile-read.js';
import { sameValue } from './vendor-profile-text.js';

export interface ProfiledFields {
  chosen: Map<InvoiceField, ChosenField>;
  /** Per field: the profile used and where the value came from (the export's vendorProfile). */
  sources: Map<InvoiceField, VendorProfileSource>;
}

const AMOUNTS: readonly InvoiceField[] = ['SubTotal', 'TotalTax', 'InvoiceTotal'];

/** The general model's candidates of a field the profile read count this much less: the profile comes first, the sums still decide. */
const GENERAL_WHEN_PROFILED = 0.9;
/** Confidence ceilings: the two readings disagree (value from the profile, or from the general model); the profile missed a field it knows. */
const DISAGREED_PROFILE_CAP = 0.75;
const DISAGREED_MODEL_CAP = 0.6;
const MISSED_CAP = 0.7;
/** A value the profile alone gives on weak evidence (a weak match, a reading off its anchors; the general model has none) is at most this sure. */
const UNSURE_CAP = 0.7;
/**
 * A reading found by its label or region fits its evidence at least this well to replace the
 * general model's: the label where it was, the value where the label puts it. Below, the page
 * resembles the reviewed one too little for its place to say more than the general model's reading.
 */
const FIRM_FIT = 0.5;
/** When fewer than this share of the fields it places are where the profile expects them, the layout has changed: only the vendor's own values are kept. */
const MIN_LAYOUT_FIT = 0.5;

/**
 * The document's fields with its vendor's profile, or undefined when no profile is the vendor's.
 * `candidates` and `general` are the general model's (chooseFields); fields a code certifies
 * (confidence 1: the Portuguese fiscal QR code) stay as they are.
 */
export function chooseWithVendorProfile(
  profiles: readonly VendorProfileSnapshot[],
  pages: readonly ProfilePage[],
  candidates: readonly PagedCandidate[],
  general: ReadonlyMap<InvoiceField, ChosenField>,
): ProfiledFields | undefined {
  const match = matchVendorProfile(profiles, pages, general.get('VendorName')?.value.text);
  if (!match) return undefined;
  const { profile } = match;
  const readings = keepIfLayoutFits(profile, readProfileFields(profile, pages));
  /** The profile's reading may replace the general model's: the match is sure and the reading firm. */
  const overrides = (reading: ProfileReading) => match.trust === 'sure' && isFirm(reading);
  const chosen = new Map(general);
  const sources = new Map<InvoiceField, VendorProfileSource>();
  const source = (fromProfile: boolean, agreement: VendorProfileSource['agreement']): VendorProfileSource => ({ profileId: profile.id, fromProfile, agreement });
  const certified = (field: InvoiceField) => general.get(field)?.confidence === 1;
  const expects = (field: InvoiceField) => {
    const evidence = profile.fields[field];
    return evidence !== undefined && evidence.weight >= MIN_FIELD_WEIGHT && isLocatable(field, evidence);
  };

  // A reading that may not replace the general model's (a weak match, a reading off its anchors) is a candidate only for an amount the general model missed.
  const amountReadings = AMOUNTS.filter((f) => readings.has(f) && !certified(f) && (overrides(readings.get(f)!) || !general.has(f)));
  const profileRuns = new Set<unknown>();
  if (amountReadings.length) {
    const extra = amountReadings.map((field): PagedCandidate => {
      const reading = readings.get(field)!;
      profileRuns.add(reading.run);
      return { category: field, value: reading.run, contentNormalized: reading.contentNormalized, score: weighted(profile, field, reading.fit), label: 1, page: reading.page };
    });
    const damped = candidates.map((c) => (amountReadings.includes(c.category as InvoiceField) ? { ...c, score: c.score * GENERAL_WHEN_PROFILED } : c));
    const again = chooseFields([...damped, ...extra]);
    for (const field of AMOUNTS.filter((f) => !certified(f))) {
      const value = again.get(field);
      if (value) chosen.set(field, value);
      else chosen.delete(field);
    }
  }

  for (const field of new Set<InvoiceField>([...general.keys(), ...readings.keys(), ...(Object.keys(profile.fields) as InvoiceField[])])) {
    if (certified(field)) continue;
    if (AMOUNTS.includes(field)) {
      const value = chosen.get(field);
      if (!value) continue;
      const fromProfile = profileRuns.has(value.value);
      const before = general.get(field);
      const agreement = !expects(field)
        ? 'modelOnly'
        : !readings.has(field)
          ? 'profileMissed'
          : !before
            ? 'profileOnly'
            : sameValue('amount', before.contentNormalized, value.contentNormalized) && sameValue('amount', readings.get(field)!.contentNormalized, value.contentNormalized)
              ? 'agreed'
              : 'disagreed';
      const capped = cappedConfidence(value.confidence, agreement, fromProfile);
      chosen.set(field, { ...value, confidence: fromProfile && agreement === 'profileOnly' && !overrides(readings.get(field)!) ? Math.min(capped, UNSURE_CAP) : capped });
      sources.set(field, source(fromProfile, agreement));
      continue;
    }
    const reading = readings.get(field);
    const before = general.get(field);
    if (reading) {
      const agreed = before !== undefined && sameValue(FIELD_KINDS[field], before.contentNormalized, reading.contentNormalized);
      const useProfile = !before || agreed || ((profile.fields[field]?.weight ?? 0) >= 0.5 && overrides(reading));
      const agreement = !before ? 'profileOnly' : agreed ? 'agreed' : 'disagreed';
      if (useProfile) chosen.set(field, profiledValue(profile, field, reading, agreed));
      const capped = cappedConfidence(chosen.get(field)!.confidence, agreement, useProfile);
      // A value the profile alone gives on weak evidence (a weak match, a reading off its anchors) is for a reviewer to confirm.
      chosen.set(field, { ...chosen.get(field)!, confidence: useProfile && !agreed && !overrides(reading) ? Math.min(capped, UNSURE_CAP) : capped });
      sources.set(field, source(useProfile, agreement));
    } else if (before) {
      const agreement = expects(field) ? 'profileMissed' : 'modelOnly';
      chosen.set(field, { ...before, confidence: cappedConfidence(before.confidence, agreement, false) });
      sources.set(field, source(false, agreement));
    }
  }
  checkDates(chosen);
  capImpossible(chosen);
  return { chosen, sources };
}

/**
 * The readings, or only those of the vendor's own values when the document's layout no longer
 * fits: when most fields the profile places by a label or a region are not where it expects them.
 */
function keepIfLayoutFits(profile: VendorProfileSnapshot, readings: Map<InvoiceField, ProfileReading>): Map<InvoiceField, ProfileReading> {
  const placed = (Object.keys(profile.fields) as InvoiceField[]).filter((f) => {
    const evidence = profile.fields[f]!;
    return !VENDOR_CONSTANTS.has(f) && evidence.region !== undefined && evidence.weight >= MIN_FIELD_WEIGHT;
  });
  const found = placed.filter((f) => readings.has(f) && !readings.get(f)!.byValue);
  if (placed.length < 2 || found.length / placed.length >= MIN_LAYOUT_FIT) return readings;
  return new Map([...readings].filter(([f]) => VENDOR_CONSTANTS.has(f)));
}

/** The vendor's own value found on the page (as printed or within OCR's tolerance), or a value found where its label or region puts it. */
function isFirm(reading: ProfileReading): boolean {
  return reading.byValue || reading.fit >= FIRM_FIT;
}

/** The candidate score of a profile reading: how well it fit, less when its field's values were corrected. */
function weighted(profile: VendorProfileSnapshot, field: InvoiceField, fit: number): number {
  const weight = profile.fields[field]?.weight ?? 1;
  return Math.min(1, fit) * (0.7 + 0.3 * weight);
}

function profiledValue(profile: VendorProfileSnapshot, field: InvoiceField, reading: ProfileReading, agreed: boolean): ChosenField {
  const score = weighted(profile, field, reading.fit);
  const textLayer = reading.run.words.length > 0 && reading.run.words.every((w) => w.confidence >= 0.999);
  // Agreement of two readings of a text layer, or the vendor's own value found as printed, is a check passed;
  // on a scan both readings share the OCR's characters, so agreement checks the place, not the reading.
  const check = (agreed && textLayer) || (reading.byValue && reading.exact) ? 'pass' : 'none';
  return {
    page: reading.page,
    value: reading.run,
    contentNormalized: reading.contentNormalized,
    confidence: confidenceOf({ category: field, value: reading.run, contentNormalized: reading.contentNormalized, score, label: 1 }, check),
  };
}

/**
 * A confidence that reflects disagreement: a value the readings disagree on, or one the profile
 * missed, is never near certain, whatever check it passed (amounts adding up, the vendor's own value
 * found as printed): two readings that disagree mean one of them is wrong, and a check can pass on
 * the wrong one (a subtotal and tax of another line that happen to add up).
 */
export function cappedConfidence(confidence: number, agreement: VendorProfileSource['agreement'], fromProfile: boolean): number {
  if (agreement === 'disagreed') return Math.min(confidence, fromProfile ? DISAGREED_PROFILE_CAP : DISAGREED_MODEL_CAP);
  if (agreement === 'profileMissed') return Math.min(confidence, MISSED_CAP);
  return confidence;
}

/** A due date before the invoice date fails both. */
function checkDates(chosen: Map<InvoiceField, ChosenField>): void {
  const issued = chosen.get('InvoiceDate');
  const due = chosen.get('DueDate');
  if (!issued || !due || due.contentNormalized >= issued.contentNormalized) return;
  chosen.set('InvoiceDate', { ...issued, confidence: Math.min(issued.confidence, 0.6) });
  chosen.set('DueDate', { ...due, confidence: Math.min(due.confidence, 0.6) });
}

/**
 * How the accuracy benchmark judges a field: the expected value of a labelled document against what
 * a model reported, raw (as printed, character for character) and normalised (by kind: text
 * without case, spaces and punctuation; amounts and dates by value; identifiers without
 * separators), and the tallies printed per field, overall and by confidence.
 */

export type FieldKind = 'text' | 'amount' | 'date' | 'code' | 'identifier';

/** One field of a labelled document: what a careful reader would type. */
export interface ExpectedField {
  kind: FieldKind;
  /** As printed on the document. */
  printed: string;
  /** The value: ISO date, plain decimal, ISO currency code, or the text itself. */
  value: string;
}

/** What a model reported for a field (undefined: not detected). */
export interface ReportedField {
  content: string;
  contentNormalized: string | null;
  confidence: number;
}

export interface FieldOutcome {
  document: string;
  field: string;
  expected?: ExpectedField;
  reported?: ReportedField;
  rawRight: boolean;
  right: boolean;
}

/** Lower case, no diacritics kept apart from their letters, only letters and digits. */
export function textKey(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** A number as printed ("RM 1,234.50", "1.234,50 €", "$8.20") read by value; undefined when there is none. */
export function amountValue(text: string): number | undefined {
  const digits = text.replace(/[^\d.,'’\s-]/g, '').replace(/['’\s]/g, '');
  const match = /-?[\d.,]*\d/.exec(digits);
  if (!match) return undefined;
  let number = match[0];
  const lastDot = number.lastIndexOf('.');
  const lastComma = number.lastIndexOf(',');
  const decimalAt = Math.max(lastDot, lastComma);
  // A single separator followed by exactly three digits groups thousands.
  const grouped = decimalAt >= 0 && number.length - decimalAt - 1 === 3 && number.split(/[.,]/).length === 2;
  if (decimalAt >= 0 && !grouped) number = `${number.slice(0, decimalAt).replace(/[.,]/g, '')}.${number.slice(decimalAt + 1)}`;
  else number = number.replace(/[.,]/g, '');
  const value = Number(number);
  return Number.isFinite(value) ? value : undefined;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * A day-first date as printed on the dev receipts ("09/01/2019", "28-12-17", "12 MAR 2018",
 * "2018-01-05") in ISO; the benchmark's own reading, independent of the models' code.
 */
export function dayFirstDate(text: string): string | undefined {
  const iso = (y: number, m: number, d: number) => {
    const year = y < 100 ? 2000 + y : y;
    const date = new Date(Date.UTC(year, m - 1, d));
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date.toISOString().slice(0, 10) : undefined;
  };
  let m = /(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /(\d{1,2})[-/.](\d{1,2})[-/.](\d{2,4})/.exec(text);
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /(\d{1,2})\s*([A-Za-z]{3})[A-Za-z]*\s*(\d{2,4})/.exec(text);
  if (m) {
    const month = MONTHS.indexOf(m[2]!.toLowerCase()) + 1;
    return month ? iso(Number(m[3]), month, Number(m[1])) : undefined;
  }
  return undefined;
}

function identifierKey(text: string): string {
  return text.replace(/[^\p{L}\p{N}]+/gu, '').toUpperCase();
}

/** Whether a reported field has the expected value (normalised comparison). */
export function sameValue(expected: ExpectedField, reported: ReportedField): boolean {
  const normalized = reported.contentNormalized ?? reported.content;
  switch (expected.kind) {
    case 'amount': {
      const want = Number(expected.value);
      const got = amountValue(normalized);
      return got !== undefined && Math.abs(got - want) < 0.005;
    }
    case 'date':
      return normalized === expected.value;
    case 'code':
      return normalized.toUpperCase() === expected.value.toUpperCase();
    case 'identifier':
      return identifierKey(normalized) === identifierKey(expected.value) || identifierKey(reported.content) === identifierKey(expected.value);
    case 'text':
      return textKey(reported.content) === textKey(expected.value) || textKey(normalized) === textKey(expected.value);
  }
}

export function judge(document: string, field: string, expected: ExpectedField | undefined, reported: ReportedField | undefined): FieldOutcome {
  if (!expected) return { document, field, reported, rawRight: !reported, right: !reported };
  if (!reported) return { document, field, expected, rawRight: false, right: false };
  return {
    document,
    field,
    expected,
    reported,
    rawRight: reported.content.trim() === expected.printed.trim(),
    right: sameValue(expected, reported),
  };
}

/** Confidence from which a reviewer may skip a field: of these, at least 95% must be right. */
export const HIGH_CONFIDENCE = 0.9;

export interface FieldTally {
  field: string;
  /** Documents that state the field. */
  expected: number;
  rawRight: number;
  right: number;
  /** Reported though the document does not state the field. */
  spurious: number;
  high: number;
  highRight: number;
}

/** Per field, in the order given, and the overall line. */
export function tally(outcomes: readonly FieldOutcome[], fields: readonly string[]): { rows: FieldTally[]; overall: FieldTally } {
  const rowOf = (field: string, subset: readonly FieldOutcome[]): FieldTally => {
    const stated = subset.filter((o) => o.expected);
    const reported = subset.filter((o) => o.reported);
    const high = reported.filter((o) => o.reported!.confidence >= HIGH_CONFIDENCE);
    return {
      field,
      expected: stated.length,
      rawRight: stated.filter((o) => o.rawRight).length,
      right: stated.filter((o) => o.right).length,
      spurious: subset.filter((o) => !o.expected && o.reported).length,
      high: high.length,
      highRight: high.filter((o) => o.right).length,
    };
  };
  return { rows: fields.map((field) => rowOf(field, outcomes.filter((o) => o.field === field))), overall: rowOf('overall', outcomes) };
}

const percent = (part: number, whole: number) => (whole === 0 ? '    -' : `${((100 * part) / whole).toFixed(1).padStart(5)}%`);

/** The table of a set: per field accuracy (normalised, raw), spurious reports, and calibration. */
export function formatTally({ rows, overall }: ReturnType<typeof tally>): string {
  const header = `  ${'field'.padEnd(14)} ${'right'.padStart(14)} ${'raw-exact'.padStart(9)} ${'spurious'.padStart(8)}   ${'conf>=0.9: right / count'}`;
  const line = (r: FieldTally) =>
    `  ${r.field.padEnd(14)} ${`${r.right}/${r.expected}`.padStart(7)} ${percent(r.right, r.expected)} ${percent(r.rawRight, r.expected).padStart(9)} ${String(r.spurious).padStart(8)}   ${percent(r.highRight, r.high)} ${`${r.highRight}/${r.high}`.padStart(9)}`;
  return [header, ...rows.map(line), line(overall)].join('\n');
}

/** Thresholds the calibration line reports: a reviewer picks one and checks the fields below it. */
export const CALIBRATION_THRESHOLDS = [0.5, 0.7, 0.8, 0.9, 0.95] as const;

/**
 * Calibration: for each threshold, of the fields reported at that confidence or above, the share
 * right (and how many there were); a calibrated model is right at least as often as it says.
 */
export function formatCalibration(outcomes: readonly FieldOutcome[]): string {
  const reported = outcomes.filter((o) => o.reported && o.expected);
  const parts = CALIBRATION_THRESHOLDS.map((threshold) => {
    const above = reported.filter((o) => o.reported!.confidence >= threshold);
    const right = above.filter((o) => o.right).length;
    return `>=${threshold}: ${percent(right, above.length).trim()} of ${above.length}`;
  });
  return `  calibration (right among fields reported at confidence): ${parts.join(', ')}`;
}

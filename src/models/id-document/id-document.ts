import type { Details, FieldName } from 'mrz';
import type { Entity } from '../../domain/entities.js';
import { detectPerPage } from '../page/chunks.js';
import { keyValueOf, newEntity, type Located, type PageRef } from '../page/text/entities.js';
import { acceptDate, findLabelledFields, type FieldRule } from '../fields/labelled-fields.js';
import { BIRTH_DATE_LABELS, GIVEN_NAME_LABELS, SURNAME_LABELS } from '../fields/labels.js';
import { lineEntities } from '../page/layout-entities.js';
import type { Model } from '../model.js';
import { checkDigitsValid, findMrz, type MrzZone } from './mrz-zone.js';
import { dateOptionsFor, isoDate, type DateOptions } from '../fields/normalize.js';
import { ocrLanguages } from '../page/page-reader.js';
import { buildPageText, joinRuns, type TextRun } from '../page/text/text-lines.js';

/**
 * Identification documents: the MRZ (TD1, TD2, TD3) with every field and check digit, and the
 * labelled fields of the visual zone (surname, date of birth, ...), beside the page's lines.
 */
export const idDocumentModel: Model = async (input) => {
  const dates = dateOptionsFor(input.language);
  const rules = visualFieldRules(dates);
  const chunks = await detectPerPage(input, { languages: ocrLanguages(input) }, async (page, ref) => {
    const text = buildPageText(await page.allWords());
    const zone = findMrz(text.lines);
    const visual = findLabelledFields(text, rules, new Set(zone?.sourceLines));
    return [
      ...lineEntities(ref, text),
      ...(zone ? mrzEntities(ref, zone) : []),
      ...visual.map(({ category, value, contentNormalized }) =>
        fieldEntity(ref, 'VisualZone', category, value, { content: value.text, contentNormalized }),
      ),
    ];
  });
  return { kind: 'document', chunks };
};

/** An invalid field (a check digit that does not match, an unknown country code) is kept, with its confidence cut to this share. */
const INVALID_FIELD_CONFIDENCE = 0.3;

function mrzEntities(page: PageRef, zone: MrzZone): Entity[] {
  const zoneRun = joinRuns(zone.sourceLines);
  const valid = checkDigitsValid(zone.result);
  const lines = autocorrected(zone);
  const summary = newEntity(page, {
    type: 'Mrz',
    category: 'MachineReadableZone',
    groupName: 'MRZ',
    confidence: zoneRun.confidence * (valid ? 1 : INVALID_FIELD_CONFIDENCE),
    keyValues: [
      keyValueOf(page, zoneRun, { category: 'MachineReadableZone', categoryNormalized: zone.format, content: zone.lines.join('\n'), contentNormalized: lines.join('\n') }),
      keyValueOf(page, zoneRun, { category: 'CheckDigitsValid', categoryNormalized: 'CheckDigitsValid', content: String(valid), contentNormalized: String(valid) }),
    ],
  });
  const fields = zone.result.details
    .filter((detail): detail is Details & { field: FieldName } => detail.field !== null)
    .map((detail) => {
      const where = fieldLocation(zone, detail);
      const raw = lines[detail.line]!.slice(detail.start, detail.end);
      return fieldEntity(page, 'MRZ', detail.field[0]!.toUpperCase() + detail.field.slice(1), { ...where, confidence: where.confidence * (detail.valid ? 1 : INVALID_FIELD_CONFIDENCE) }, {
        content: raw,
        contentNormalized: mrzValue(detail, raw),
      });
    });
  return [summary, ...fields];
}

/** The zone's lines with the parser's letter/digit corrections applied (UT0 -> UTO). */
function autocorrected(zone: MrzZone): string[] {
  const lines = zone.lines.map((line) => [...line]);
  for (const { line, column, corrected } of zone.result.details.flatMap((d) => d.autocorrect)) lines[line]![column] = corrected;
  return lines.map((chars) => chars.join(''));
}

/**
 * Where a field is: MRZ type is monospaced, so its characters sit at their share of the line's
 * width (and of the OCR text, for the span).
 */
function fieldLocation(zone: MrzZone, detail: Details): Located {
  const line = zone.sourceLines[detail.line]!;
  const length = zone.lines[detail.line]!.length;
  const [span] = line.spans;
  const from = detail.start / length;
  const to = Math.max(detail.end, detail.start + 1) / length;
  return {
    box: { left: line.box.left + line.box.width * from, top: line.box.top, width: line.box.width * (to - from), height: line.box.height },
    confidence: line.confidence,
    spans: span ? [{ offset: span.offset + Math.round(span.length * from), length: Math.max(1, Math.round(span.length * (to - from))) }] : [],
  };
}

const MRZ_DATES: Partial<Record<FieldName, 'past' | 'future'>> = { birthDate: 'past', issueDate: 'past', expirationDate: 'future' };

/** Dates in ISO, check digits as valid/invalid, names with spaces; what `mrz` could not read stays as printed. */
function mrzValue(detail: Details & { field: FieldName }, raw: string): string {
  if (detail.field.endsWith('CheckDigit')) return detail.valid ? 'valid' : 'invalid';
  const when = MRZ_DATES[detail.field];
  if (when && /^\d{6}$/.test(raw)) return mrzDate(raw, when) ?? raw;
  return detail.value ?? raw.replace(/</g, ' ').trim();
}

/**
 * YYMMDD with the century the MRZ leaves out: birth and issue dates are in the past, expiry
 * dates within the next fifty years.
 */
function mrzDate(raw: string, when: 'past' | 'future'): string | undefined {
  const yy = Number(raw.slice(0, 2));
  const thisYear = new Date().getUTCFullYear();
  const century = Math.floor(thisYear / 100) * 100;
  let year = century + yy;
  if (when === 'past' && year > thisYear) year -= 100;
  if (when === 'future' && year > thisYear + 50) year -= 100;
  return isoDate(String(year), raw.slice(2, 4), raw.slice(4, 6));
}

function fieldEntity(page: PageRef, groupName: string, category: string, where: Located, text: { content: string; contentNormalized: string }): Entity {
  return newEntity(page, {
    type: 'Field',
    category,
    groupName,
    confidence: where.confidence,
    keyValues: [keyValueOf(page, where, { category, categoryNormalized: category, ...text })],
  });
}

/** Labels of the visual zone in the five languages of the OCR; bilingual cards print "Surname / Nom". */
function visualFieldRules(dates: DateOptions): FieldRule[] {
  const text = (value: TextRun) => (/\p{L}|\d/u.test(value.text) ? { contentNormalized: value.text.replace(/\s+/g, ' ').trim() } : undefined);
  const date = acceptDate(dates);
  return [
    { category: 'BirthDate', labels: BIRTH_DATE_LABELS, accept: date },
    { category: 'ExpirationDate', labels: ['date\\s*of\\s*expiry', 'expiry(?:\\s*date)?', 'expiration\\s*date', 'valid\\s*until', 'data\\s*de\\s*validade', 'validade', "date\\s*d['’]expiration", 'g[üu]ltig\\s*bis', 'fecha\\s*de\\s*caducidad'], accept: date },
    { category: 'IssueDate', labels: ['date\\s*of\\s*issue', 'issue\\s*date', 'data\\s*de\\s*emiss[aã]o', 'date\\s*de\\s*d[ée]livrance', 'ausstellungsdatum', 'fecha\\s*de\\s*expedici[oó]n'], accept: date },
    { category: 'LastName', labels: SURNAME_LABELS, accept: text },
    { category: 'FirstName', labels: GIVEN_NAME_LABELS, accept: text },
    { category: 'DocumentNumber', labels: ['(?:passport|document|card|id)\\s*(?:no|number|n[º°o])', 'n[º°o]?\\s*(?:do\\s*)?documento', 'passeport\\s*n[º°o]', 'pass-?nr', 'ausweis-?nr'], accept: text },
    { category: 'Nationality', labels: ['nationality', 'nacionalidade', 'nationalit[ée]', 'staatsangeh[öo]rigkeit', 'nacionalidad'], accept: text },
    { category: 'Sex', labels: ['sex', 'sexo', 'sexe', 'geschlecht'], accept: text },
    { category: 'BirthPlace', labels: ['place\\s*of\\s*birth', 'local\\s*de\\s*nascimento', 'naturalidade', 'lieu\\s*de\\s*naissance', 'geburtsort', 'lugar\\s*de\\s*nacimiento'], accept: text },
  ];
}

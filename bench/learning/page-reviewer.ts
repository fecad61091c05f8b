/**
 * A reviewer on the page, scripted: for each labelled field the model got wrong or missed, the
 * reviewer finds the value printed on the page (the words of the page's Line entities, as the page
 * shows them), picks the occurrence a person would (the one beside a label of that field, not a
 * figure inside an item's or a discount's line) and fills the field from those words, sending
 * `place` = their box. Fields the model got right are left alone. The bench's own reading of
 * values and labels, independent of the model's code: it plays the person, not the model.
 */
import type { FastifyInstance } from 'fastify';
import type { LabelledInvoiceField } from '../accuracy/invoice-labels.js';
import { amountValue, judge, textKey, type ExpectedField, type ReportedField } from '../accuracy/score.js';
import type { Entity } from '../../src/domain/entities.js';
import { call, REVIEW } from './review-loop.js';

type Headers = { authorization: string };
interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface Word {
  text: string;
  box: Box;
}
interface Line {
  words: Word[];
  box: Box;
}
interface Chunk {
  chunkNumber: number;
  pageNumber: number;
  version: number;
  entities: Entity[];
}

/** Where the reviewer saw a value: the page, the words' box, the words as printed and the label beside them. */
export interface Sighting {
  pageNumber: number;
  chunkNumber: number;
  box: Box;
  printed: string;
  label: string;
}

/** The reported value of a field as the scoring reads it. */
export function reportedOf(entity: Entity | undefined): ReportedField | undefined {
  const kv = entity && !entity.notDetected ? entity.keyValues[0] : undefined;
  return kv ? { content: kv.content, contentNormalized: kv.contentNormalized, confidence: kv.confidence } : undefined;
}

const union = (boxes: readonly Box[]): Box => {
  const left = Math.min(...boxes.map((b) => b.left));
  const top = Math.min(...boxes.map((b) => b.top));
  const right = Math.max(...boxes.map((b) => b.left + b.width));
  const bottom = Math.max(...boxes.map((b) => b.top + b.height));
  return { left, top, width: right - left, height: bottom - top };
};

function linesOf(chunk: Chunk): Line[] {
  return chunk.entities
    .filter((e) => e.type === 'Line' && e.keyValues.length > 1)
    .map((e) => {
      const words = e.keyValues.slice(1).map((w) => ({ text: w.content, box: w.boundingBox }));
      return { words, box: union(words.map((w) => w.box)) };
    });
}

const MONTHS: Array<[RegExp, number]> = [
  [/^(jan|janv|januar|janvier|january)/, 1],
  [/^(feb|fév|fev|februar|février|february)/, 2],
  [/^(mär|mar|märz|mars|march)/, 3],
  [/^(apr|avr|april|avril)/, 4],
  [/^(mai|may)/, 5],
  [/^(jun|juin|juni|june)/, 6],
  [/^(jul|juil|juli|july)/, 7],
  [/^(aug|aoû|aout|août|august)/, 8],
  [/^(sep|sept)/, 9],
  [/^(okt|oct)/, 10],
  [/^nov/, 11],
  [/^(dez|déc|dec)/, 12],
];

/** A date as a person reads it (day first, or ISO, or with the month in words) in ISO. */
function dateOf(text: string): string | undefined {
  const iso = (y: number, m: number, d: number) => {
    const year = y < 100 ? 2000 + y : y;
    const date = new Date(Date.UTC(year, m - 1, d));
    return date.getUTCMonth() === m - 1 && date.getUTCDate() === d ? date.toISOString().slice(0, 10) : undefined;
  };
  let m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (m) return iso(Number(m[1]), Number(m[2]), Number(m[3]));
  m = /^(\d{1,2})[./-](\d{1,2})[./-](\d{2}|\d{4})$/.exec(text);
  if (m) return iso(Number(m[3]), Number(m[2]), Number(m[1]));
  m = /^(\d{1,2})\.?\s+(\p{L}+)\.?\s+(\d{4})$/u.exec(text);
  const month = m && MONTHS.find(([p]) => p.test(m![2]!.toLowerCase()))?.[1];
  return m && month ? iso(Number(m[3]), month, Number(m[1])) : undefined;
}

const CURRENCY_SIGNS: Record<string, string> = { '€': 'EUR', $: 'USD', '£': 'GBP', KČ: 'CZK', FR: 'CHF' };

/** Whether some consecutive words, as printed, are the expected value. */
function isValue(kind: ExpectedField['kind'], words: readonly Word[], expected: ExpectedField): boolean {
  const text = words.map((w) => w.text).join(' ').trim();
  switch (kind) {
    case 'amount': {
      const numeric = words.every((w, i) => /^[-+(]?[\d.,'’]*\d[\d.,'’]*-?\)?$/.test(w.text) || (i === words.length - 1 && i > 0 && /^(€|EUR|CHF|CZK|Kč)$/i.test(w.text)));
      const value = numeric ? amountValue(text) : undefined;
      return value !== undefined && Math.abs(Math.abs(value) - Math.abs(Number(expected.value))) < 0.005 && /\d/.test(words[0]!.text);
    }
    case 'date':
      return /\d/.test(words[0]!.text) && /\d/.test(words.at(-1)!.text) && dateOf(text.replace(/[,;]$/, '')) === expected.value;
    case 'code': {
      const token = text.replace(/[^\p{L}€$£]/gu, '').toUpperCase();
      return words.length === 1 && (token === expected.value.toUpperCase() || CURRENCY_SIGNS[token] === expected.value.toUpperCase());
    }
    case 'identifier': {
      const key = (t: string) => t.replace(/[^\p{L}\p{N}]+/gu, '').toUpperCase();
      return key(text) === key(expected.value) && /[\p{L}\p{N}]/u.test(words[0]!.text.slice(0, 1)) || text === expected.value;
    }
    case 'text':
      return textKey(text) === textKey(expected.value);
  }
}

/** What a person takes for each field's label; `weak` ones count less (an amount due is not always the total). */
const LABELS: Record<LabelledInvoiceField, { strong: RegExp; weak?: RegExp; not?: RegExp }> = {
  InvoiceId: { strong: /factur|rechnung|invoice|faktur|beleg|fa[ck]tura|číslo|n[°o]\b|nr\b|nummer|number/i },
  InvoiceDate: { strong: /date|datum|vystaven|le\s*:/i, not: /échéance|echeance|fällig|due|livraison|liefer|leistung|période|periode|prestation|zahlbar|bis\b|au\b/i },
  VendorName: { strong: /^$/ },
  VendorTaxId: { strong: /tva|ust|vat|mwst|steuer|dič|dic\b|tax/i },
  SubTotal: { strong: /total\s*ht|netto|net\b|nettobetrag|zwischensumme|sous-total|subtotal|summe|warenwert|základ|bez\s*dph|montant\s*ht/i, not: /%|sur\b|rabatt|remise|skonto|payer|zahl|due\b|acompte|anzahlung/i },
  TotalTax: { strong: /tva|mwst|ust|steuer|vat|tax|dph/i, not: /%\s*$/ },
  InvoiceTotal: { strong: /ttc|brutto|gesamt|endbetrag|rechnungsbetrag|total|celkem/i, weak: /payer|zahl|due|úhrad/i, not: /\bht\b|netto|tva\b|mwst\b|déjà|bereits|anzahlung|acompte/i },
  Currency: { strong: /devise|währung|currency|měna/i },
  IBAN: { strong: /iban/i },
};

/** The text a person reads as the label of some words: before them on their line, the line to their left in the row, and the column head above. */
function labelOf(lines: readonly Line[], line: Line, from: number, box: Box): string {
  const before = line.words.slice(0, from).map((w) => w.text).join(' ');
  const centre = box.top + box.height / 2;
  const left = lines
    .filter((l) => l !== line && l.box.left + l.box.width <= box.left + 1 && Math.abs(l.box.top + l.box.height / 2 - centre) < box.height / 2)
    .sort((a, b) => b.box.left + b.box.width - (a.box.left + a.box.width))[0];
  const above = lines
    .filter((l) => l !== line && l.box.top + l.box.height <= box.top + 1 && box.top - (l.box.top + l.box.height) < 3 * box.height)
    .flatMap((l) => l.words.filter((w) => w.box.left < box.left + box.width + box.height && w.box.left + w.box.width > box.left - box.height).map((w) => ({ w, l })))
    .sort((a, b) => b.l.box.top - a.l.box.top);
  const nearestAbove = above.filter((a) => a.l === above[0]?.l).map((a) => a.w.text).join(' ');
  return [before || left?.words.slice(-4).map((w) => w.text).join(' ') || '', nearestAbove].join(' | ');
}

const MAX_WORDS = 8;

/** Every place the page prints the value, each with the label a person reads beside it. */
export function sightings(chunks: readonly Chunk[], expected: ExpectedField): Sighting[] {
  const found: Sighting[] = [];
  for (const chunk of chunks) {
    const lines = linesOf(chunk);
    for (const line of lines) {
      for (let i = 0; i < line.words.length; i++) {
        for (let j = i; j < Math.min(line.words.length, i + MAX_WORDS); j++) {
          const words = line.words.slice(i, j + 1);
          if (!isValue(expected.kind, words, expected)) continue;
          const box = union(words.map((w) => w.box));
          found.push({ pageNumber: chunk.pageNumber, chunkNumber: chunk.chunkNumber, box, printed: words.map((w) => w.text).join(' '), label: labelOf(lines, line, i, box) });
          break;
        }
      }
    }
  }
  // A name over two lines of a letterhead: a person drags over both.
  if (found.length === 0 && expected.kind === 'text') {
    for (const chunk of chunks) {
      const lines = linesOf(chunk);
      for (const line of lines) {
        const h = line.box.height;
        const under = lines.find((l) => l !== line && l.box.top - (line.box.top + h) >= -0.3 * h && l.box.top - (line.box.top + h) <= h && Math.abs(l.box.left - line.box.left) <= 2 * h);
        if (!under || !isValue('text', [...line.words, ...under.words], expected)) continue;
        const box = union([line.box, under.box]);
        found.push({ pageNumber: chunk.pageNumber, chunkNumber: chunk.chunkNumber, box, printed: [...line.words, ...under.words].map((w) => w.text).join(' '), label: '' });
      }
    }
  }
  // A shorter run inside a longer one of the same value ("1 005,55" and "005,55" cannot both be it): the longer stays.
  return found.filter((s) => !found.some((o) => o !== s && o.chunkNumber === s.chunkNumber && o.box.width > s.box.width && inside(o.box, s.box)));
}

const inside = (outer: Box, inner: Box) => inner.left >= outer.left - 0.5 && inner.top >= outer.top - 0.5 && inner.left + inner.width <= outer.left + outer.width + 0.5 && inner.top + inner.height <= outer.top + outer.height + 0.5;

/**
 * The occurrence a person points at: beside a label of the field (its own words, not an excluded
 * context such as a discount's "5,00% sur"), then the weaker labels; amounts the lowest on the
 * page (totals close it), the others the highest (a header holds them).
 */
export function chooseSighting(field: LabelledInvoiceField, found: readonly Sighting[]): Sighting | undefined {
  const vocabulary = LABELS[field];
  const score = (s: Sighting) => {
    const [own] = s.label.split(' | ');
    const excluded = vocabulary.not && vocabulary.not.test(own!) ? -2 : 0;
    if (vocabulary.strong.test(s.label)) return 2 + excluded;
    if (vocabulary.weak?.test(s.label)) return 1 + excluded;
    return excluded;
  };
  const amount = field === 'SubTotal' || field === 'TotalTax' || field === 'InvoiceTotal';
  const order = (s: Sighting) => s.chunkNumber * 1e6 + s.box.top;
  return [...found].sort((a, b) => score(b) - score(a) || (amount ? order(b) - order(a) : order(a) - order(b)))[0];
}

/** What the reviewer types for a value: the label's value, identifiers without the spaces a printed IBAN or VAT id has. */
function normalizedOf(field: LabelledInvoiceField, expected: ExpectedField): string {
  if (field === 'IBAN' || field === 'VendorTaxId') return expected.value.replace(/\s/g, '').toUpperCase();
  return expected.value;
}

export interface PageReview {
  corrected: LabelledInvoiceField[];
  /** Corrections sent without a place: the value was not found on the page. */
  unplaced: LabelledInvoiceField[];
  /** Where each correction was pointed at, for the report. */
  places: Array<{ field: LabelledInvoiceField; printed: string; label: string }>;
}

/** Reviews the task on its page: checks it out, corrects every wrong or missing labelled field with its place, completes. */
export async function reviewOnPage(app: FastifyInstance, reviewer: Headers, taskId: number, expected: Partial<Record<LabelledInvoiceField, ExpectedField>>): Promise<PageReview> {
  await call(app, { method: 'POST', url: `${REVIEW}/tasks/${taskId}/checkout`, headers: reviewer }, 'checkout');
  const detail = (await call(app, { method: 'GET', url: `${REVIEW}/tasks/${taskId}`, headers: reviewer }, 'review task')).json() as { chunks: Chunk[] };
  const review: PageReview = { corrected: [], unplaced: [], places: [] };
  const edits = new Map<number, { chunkNumber: number; version: number; edits: unknown[]; addedFields: unknown[] }>();
  const editsOf = (chunk: Chunk) => {
    if (!edits.has(chunk.chunkNumber)) edits.set(chunk.chunkNumber, { chunkNumber: chunk.chunkNumber, version: chunk.version, edits: [], addedFields: [] });
    return edits.get(chunk.chunkNumber)!;
  };
  for (const [field, want] of Object.entries(expected) as Array<[LabelledInvoiceField, ExpectedField]>) {
    const found = detail.chunks.flatMap((c) => c.entities.map((e, entityIndex) => ({ chunk: c, e, entityIndex }))).find(({ e }) => e.type === 'Field' && e.category === field);
    if (judge('', field, want, reportedOf(found?.e)).right) continue;
    review.corrected.push(field);
    const seen = chooseSighting(field, sightings(detail.chunks, want));
    const value = { content: seen?.printed ?? want.printed, contentNormalized: normalizedOf(field, want) };
    if (seen) review.places.push({ field, printed: seen.printed, label: seen.label });
    else review.unplaced.push(field);
    // The value goes on the chunk of the page it is printed on; a field of another chunk is edited where it is.
    const target = found?.chunk ?? detail.chunks.find((c) => c.chunkNumber === seen?.chunkNumber) ?? detail.chunks[0]!;
    const place = seen && seen.pageNumber === target.pageNumber ? { place: { pageNumber: seen.pageNumber, box: seen.box } } : {};
    if (seen && !place.place) review.unplaced.push(field);
    if (found) editsOf(found.chunk).edits.push({ entityIndex: found.entityIndex, keyValueIndex: 0, ...value, ...place });
    else editsOf(target).addedFields.push({ category: field, ...value, ...place });
  }
  if (edits.size) {
    const chunks = [...edits.values()].map((c) => ({ chunkNumber: c.chunkNumber, version: c.version, edits: c.edits, ...(c.addedFields.length ? { addedFields: c.addedFields } : {}) }));
    await call(app, { method: 'PATCH', url: `${REVIEW}/tasks/${taskId}/entities`, headers: reviewer, payload: { chunks } }, 'edit entities');
  }
  await call(app, { method: 'POST', url: `${REVIEW}/tasks/${taskId}/complete`, headers: reviewer }, 'complete');
  return review;
}

import { overlap } from '../page/text/geometry.js';
import type { LabelDefinition } from './invoice-labels.js';
import type { LabelCategory } from './label-definition.js';
import { findAmounts, isCountBeforeWord, plainWithOffsets } from './normalize.js';
import { isOnlyLegalForm } from './legal-form.js';
import { runInRange, runOfWords, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';

/** A label found in a line: where it is, and where the text after it (its separators skipped) starts. */
export interface LabelHit {
  definition: LabelDefinition;
  line: TextLine;
  /** Offsets in `line.text`. */
  start: number;
  labelEnd: number;
  valueStart: number;
}

/**
 * Where a value stands relative to its label, from the most to the least usual; `afterWords`: to
 * the right of the label's line when words that are no value follow the label on it ("Total Amt
 * Rounded ..... 15.90", "Total RM ..... 31.45": the rest of a label the vocabulary does not know).
 */
export type ValuePlace = 'inline' | 'right' | 'below' | 'nextRowRight' | 'afterWords';

export interface ValueRun {
  run: TextRun;
  place: ValuePlace;
}

interface CompiledLabel {
  definition: LabelDefinition;
  pattern: RegExp;
}

/**
 * A character of a word written with spaces between words. Chinese and Japanese write none: each
 * of their characters may start or end a word, and a figure or a code may follow a label's last
 * character without a space ("總計1,050", "發票號碼AB-12345678").
 */
const SPACED_WORD_CHARACTER = '(?![\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}])[\\p{L}\\p{N}]';
const UNSPACED_CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const SPACED_WORD_AT_END = new RegExp(`${SPACED_WORD_CHARACTER}$`, 'u');
const SPACED_WORD_AFTER = new RegExp(`^[/-]?${SPACED_WORD_CHARACTER}`, 'u');

/**
 * A label ends at a word end, or at a sign a value may follow without a space ("n°2024-118",
 * "Invoice#123").
 */
export function compileLabels(definitions: readonly LabelDefinition[]): CompiledLabel[] {
  return definitions.map((definition) => ({ definition, pattern: new RegExp(`(?:${definition.source})(?:(?<!${SPACED_WORD_CHARACTER})|(?!${SPACED_WORD_CHARACTER}))`, 'yu') }));
}

/**
 * What separates a label from its value: spaces, a colon, dots (leaders), dashes, a number sign;
 * not a minus sign ("Total -500.00": a credit note's amounts are negative).
 */
const SEPARATOR = /(?:[\s:;.·…_=>–—|]|-(?!\d))*/y;

/**
 * Every label of `labels` in the lines of the page (lines in `excluded`, such as item rows, are
 * skipped), left to right: at each word start the longest label found there, then on after it.
 */
export function findLabelHits(page: PageText, labels: readonly CompiledLabel[], excluded: ReadonlySet<TextLine>): LabelHit[] {
  const hits: LabelHit[] = [];
  for (const line of page.lines) {
    if (excluded.has(line)) continue;
    const folded = plainWithOffsets(line.text);
    const found = hitsInLine(line, withoutLetterSpacing(line.text, folded), labels);
    // A short header cell in capitals that a text layer or OCR cut into pieces at random ("Nº FACT
    // URA", "VE NCI MI E NT O", letter-spaced type) read again without its spaces, when that finds
    // a longer label.
    const joined = LETTER_SPACED_CELL.test(line.text) ? hitsInLine(line, withoutSpaces(folded), labels) : [];
    hits.push(...(longestHit(joined) > longestHit(found) ? joined : found));
  }
  return hits;
}

/** How much of its line the longest of these labels covers. */
const longestHit = (hits: readonly LabelHit[]) => Math.max(0, ...hits.map((h) => h.labelEnd - h.start));

/** A line of a few capitals in three or more pieces, no lower case: a header cell. */
const LETTER_SPACED_CELL = /^(?=[^\p{Ll}]{5,30}$)\S+(?: \S+){2,}$/u;

/** The labels of one line, left to right: at each word start the longest label found there, then on after it. */
function hitsInLine(line: TextLine, { plain, offsets }: Folded, labels: readonly CompiledLabel[]): LabelHit[] {
  const hits: LabelHit[] = [];
  // Where the line's last label ended, in `plain`.
  let lastEnd = -1;
  for (let at = 0; at < plain.length; ) {
    const wordStart = (at === 0 || !SPACED_WORD_AT_END.test(plain[at - 1]!) || UNSPACED_CHARACTER.test(plain[at]!)) && /[\p{L}\p{N}#]/u.test(plain[at]!);
    const best = wordStart ? longestLabelAt(plain, at, labels) : undefined;
    if (!best) {
      at++;
      continue;
    }
    // A label glued to a code is part of the code: "GST/909/23-24", "RE-50102" (a label that
    // ends in a space, as "VAT 25% " does, is not glued to the minus of "-100.00").
    const endsInWord = SPACED_WORD_AT_END.test(plain.slice(at, best.end));
    if (endsInWord && SPACED_WORD_AFTER.test(plain.slice(best.end))) {
      at = best.end;
      continue;
    }
    SEPARATOR.lastIndex = best.end;
    SEPARATOR.exec(plain);
    // A party's word before a legal form and nothing else is the name itself ("Lieferant GmbH").
    if (NAME_LABELS.has(best.definition.category) && (!labelsAName(plain, at, best.end, SEPARATOR.lastIndex) || isOnlyLegalForm(plain.slice(SEPARATOR.lastIndex)))) {
      at = best.end;
      continue;
    }
    const previous = hits.at(-1);
    const between = plain.slice(lastEnd, at);
    // A bilingual label's translation in brackets ("Datum uskutečnění zdaň. plnění (tax point)",
    // "Fälligkeitsdatum (Due date)") is the label before it, whatever the words of either language
    // would name alone; one word in brackets qualifies it instead ("Rechnungsbetrag (netto)").
    const translation = previous !== undefined && /^\s*\(\s*$/.test(between) && /^\s*\)/.test(plain.slice(best.end)) && /\S\s+\S/.test(plain.slice(at, best.end));
    if (previous && (translation || (previous.definition.category === best.definition.category && /^[\s(/:]*$/.test(between)))) {
      // The label's other name beside it, in brackets or after a slash ("Buyer (Bill to)"): one label.
      SEPARATOR.lastIndex = best.end + (/^[\s)]*/.exec(plain.slice(best.end))?.[0].length ?? 0);
      SEPARATOR.exec(plain);
      previous.labelEnd = offsets[best.end]!;
      previous.valueStart = offsets[SEPARATOR.lastIndex]!;
    } else hits.push({ definition: best.definition, line, start: offsets[at]!, labelEnd: offsets[best.end]!, valueStart: offsets[SEPARATOR.lastIndex]! });
    lastEnd = at = best.end;
  }
  return hits;
}

type Folded = { plain: string; offsets: number[] };

/** The folded text without the spaces `drop` names (by index), each character keeping its offset. */
function withoutSpacesAt({ plain, offsets }: Folded, drop: (index: number) => boolean): Folded {
  let joined = '';
  const kept: number[] = [];
  for (let i = 0; i < plain.length; i++) {
    if (plain[i] === ' ' && drop(i)) continue;
    joined += plain[i];
    kept.push(offsets[i]!);
  }
  return { plain: joined, offsets: [...kept, offsets[plain.length]!] };
}

/** The folded text without any of its spaces. */
const withoutSpaces = (folded: Folded) => withoutSpacesAt(folded, () => true);

/**
 * A title set letter-spaced in capitals ("I N V O I C E", "FA C T U R E N° F2403-01873", "N º FAC
 * T U RA", as a text layer or OCR splits it) as one word: runs of four or more pieces of one to
 * three capitals, two at least of one, lose the spaces between them; each remaining character
 * keeps its offset in `text`, the line as printed.
 */
export function withoutLetterSpacing(text: string, folded: Folded): Folded {
  const { plain, offsets } = folded;
  const joined = new Uint8Array(plain.length);
  for (const run of plain.matchAll(LETTER_SPACED)) {
    const capitals = [...run[0]].every((c, k) => c === ' ' || !/\p{Ll}/u.test(text[offsets[run.index + k]!]!));
    if (capitals && run[0].split(' ').filter((p) => p.length === 1).length >= 2) joined.fill(1, run.index, run.index + run[0].length);
  }
  return joined.includes(1) ? withoutSpacesAt(folded, (i) => joined[i] === 1) : folded;
}

const LETTER_SPACED = /(?<![\p{L}\p{N}])\p{L}{1,3}(?: \p{L}{1,3}){3,}(?=\s|$)/gu;

/** Labels of the parties' names, whose words are also words of company names. */
const NAME_LABELS: ReadonlySet<string> = new Set(['VendorName', 'CustomerName']);

/**
 * A word that labels a party ("Client", "Supplier", "Buyer") is also a word of company names
 * ("Bright Client Services Ltd", "Customer: Supplier Direct Ltd"): after other words of its line
 * it labels a name only when a sign (a colon, a dash) follows it or when it ends a line of a few
 * words (the name is below it or in a column to its right). Opening a line it stays a label ("Bill to Example
 * Ltd", "Spett.le Bianchi SpA"), and so it does in brackets or after a slash ("Buyer (Bill to)").
 */
function labelsAName(plain: string, start: number, labelEnd: number, valueStart: number): boolean {
  // Opening its line, or in brackets or after a slash beside another label ("Buyer (Bill to)").
  if (/^[\s|*•-]*$/.test(plain.slice(0, start)) || /[(/]\s*$/.test(plain.slice(0, start))) return true;
  // A full stop ends a sentence ("... on behalf of the seller. Statutory rights apply"), no label.
  if (/[^\s.]/.test(plain.slice(labelEnd, valueStart))) return true;
  // Ending its line after a few words ("Bill to" at the end of "Invoice No. 12 | Bill to"), not a
  // sentence's last word ("Draft disclosure schedules; coordinate with client").
  return plain.slice(valueStart).trim() === '' && plain.slice(0, start).trim().split(/\s+/).length <= 3;
}

/** An amount with cents right after a label (its separators skipped): "TVA 0,56", "VAT: € 12.30". */
const AMOUNT_NEXT = /^[\s:;.·…_=>|]*[-−]?\p{Sc}?\s?\d{1,3}(?:[.,\s']?\d{3})*[.,]\d{2}(?!\d)/u;

/**
 * The longest label at `at`; of labels as long, the one whose kind of value follows: a tax word
 * names the tax number ("TVA FR12...") or the tax amount ("TVA 0,56") by what comes after it, else
 * the surer one.
 */
function longestLabelAt(text: string, at: number, labels: readonly CompiledLabel[]): { definition: LabelDefinition; end: number } | undefined {
  let best: { definition: LabelDefinition; end: number } | undefined;
  const fits = (definition: LabelDefinition, end: number) => AMOUNT_CATEGORIES.has(definition.category) === AMOUNT_NEXT.test(text.slice(end));
  for (const { definition, pattern } of labels) {
    pattern.lastIndex = at;
    const match = pattern.exec(text);
    if (!match || match[0].length === 0) continue;
    const end = at + match[0].length;
    const better = !best || end > best.end || (end === best.end && (fits(definition, end) === fits(best.definition, end) ? definition.strength > best.definition.strength : fits(definition, end)));
    if (better) best = { definition, end };
  }
  return best;
}

/** Labels whose value is an amount. */
const AMOUNT_CATEGORIES: ReadonlySet<string> = new Set(['SubTotal', 'TotalTax', 'TaxLine', 'Withheld', 'InvoiceTotal', 'Tendered', 'Change', 'Rounding']);

/** Words a label may run on by beyond the vocabulary's part of it, before its value to the right. */
const MAX_LABEL_WORDS_AFTER = 3;
/** An amount's label may say what the amount is for at more length ("Total Water Charges for 152 Main St"). */
const MAX_AMOUNT_LABEL_WORDS_AFTER = 8;

/** Text that holds an amount: a number with cents or a currency, or one that is no count before a word (not "152 Main St", "3 items"). */
function holdsAmount(text: string): boolean {
  return findAmounts(text).some((a) => !isCountBeforeWord(text, a));
}

/** A value on the next line must start within this many line heights below its label. */
const MAX_BELOW_LINE_HEIGHTS = 2;
/** Rows of another column's text a label's cell may lie under (lineBelow). */
const MAX_ROWS_BESIDE = 3;

/** Table borders and leaders OCR reads between a label and its value, and the brackets of a label beside another ("Buyer (Bill to)"). */
const NOT_A_VALUE = /^[\s|:;.,·…\-–—_=>[\]()]*$/;
const LABEL_END = /^\s*\p{L}+\s*:\s*$/u;
/** A tax rate and nothing else ("9 %", "@ 18%", "(6%)"): no value of a label, nor a tax. */
export const RATE_ALONE = /^[\s(@]*\d{1,2}(?:[.,]\d{1,3})?\s*%[\s):]*$/;
/** A salutation alone on its line, over the name it goes with ("Herrn" / "Dr. Matthias Ohlendorf"); in plain text (normalize.ts). */
export const SALUTATION = /^(?:herrn?|frau|firma|fa|dr|m|mr|mrs|ms|miss|monsieur|madame|mme|mevrouw|de\s+heer|dhr|mevr|sr|sra|senor|senora|sig|sigra|signor|signora|spett\.?\s*le|exmo?s?|exma)\W*$/;
/** The start of a line that names the person a letter is for, within the company: English, German, Dutch, French. */
export const ATTENTION = /^\s*(?:attn\b|attention\b|c\/o\b|z\.\s?hd\.?|zu\s+h(?:än|aen)den\b|t\.?\s?a\.?\s?v\.?(?=\s)|[àa]\s+l['’]attention\b)/i;

/**
 * Where the value of a label may be: the rest of its line up to the next label; when the label
 * ends its line, the next line of its row (any distance: a column of its own, dotted leaders);
 * the part of the line under it in the label's column (a form, a table header over its cell, also
 * when the header's labels share one line); and the line to its right just below (an amount OCR
 * set a little lower than its label).
 */
export function valuesOf(page: PageText, hit: LabelHit, previous: LabelHit | undefined, next: LabelHit | undefined): ValueRun[] {
  const { line } = hit;
  const [span] = line.spans;
  if (!span) return [];
  const nextOnLine = next && next.line === line ? next : undefined;
  const previousOnLine = previous && previous.line === line ? previous : undefined;
  const end = nextOnLine ? nextOnLine.start : line.text.length;
  const rest = line.text.slice(hit.valueStart, end);
  const values: ValueRun[] = [];
  // One word and a colon after the label is the end of a longer label ("Bill to Address:"), and a
  // rate the rest of a tax's ("Total Sales (Incl. GST @6%)").
  if (!NOT_A_VALUE.test(rest) && !LABEL_END.test(rest) && !RATE_ALONE.test(rest)) {
    const from = hit.valueStart + (rest.length - rest.trimStart().length);
    const run = runInRange(page, span.offset + from, span.offset + hit.valueStart + rest.trimEnd().length);
    if (run) values.push({ run, place: 'inline' });
    // A few words and no digit after the label: the rest of a longer label, its value further right.
    // After an amount's label, more words and a number that is no amount may stand before it
    // ("Total Gas & Water Charges for 152 LOUISA ST | 186.28": what the charges are for, a house number).
    const words = rest.trim().split(/\s+/).length;
    const amountLabel = AMOUNT_CATEGORIES.has(hit.definition.category);
    const notBefore = amountLabel ? holdsAmount(rest) || words > MAX_AMOUNT_LABEL_WORDS_AFTER : /\d/.test(rest) || words > MAX_LABEL_WORDS_AFTER;
    const right = nextOnLine || notBefore ? undefined : lineRightOf(page, line);
    if (right) values.push({ run: right, place: 'afterWords' });
    return values;
  }
  const right = nextOnLine ? undefined : lineRightOf(page, line);
  if (right) values.push({ run: right, place: 'right' });
  const below = lineBelow(page, line, isTotalsHeader(hit, previous, next));
  const column = labelColumn(page, hit, previousOnLine, nextOnLine);
  // "ATTN: Accounts Payable" names who reads the letter, not a value: the line under it may be.
  const valueLine = below && ATTENTION.test(below.text) ? lineBelow(page, below) : below;
  const cell = valueLine && cellUnder(page, valueLine, column);
  if (cell) values.push({ run: cell, place: 'below' });
  const lower = nextOnLine ? undefined : lineRightBelow(page, line);
  if (lower && lower !== below) values.push({ run: lower, place: 'nextRowRight' });
  return values;
}

/** The labels of a document's sums, which a totals row may print as a header over its amounts. */
const SUM_LABELS: ReadonlySet<LabelCategory> = new Set(['SubTotal', 'TotalTax', 'TaxLine', 'InvoiceTotal']);

/** A sum's label beside another in its row ("TOTAL HT  TOTAL TVA  TOTAL TTC"): the header of a totals row, its amounts under it. */
function isTotalsHeader(hit: LabelHit, previous: LabelHit | undefined, next: LabelHit | undefined): boolean {
  const beside = (other: LabelHit | undefined) => other !== undefined && other.line.row === hit.line.row && SUM_LABELS.has(other.definition.category);
  return SUM_LABELS.has(hit.definition.category) && (beside(previous) || beside(next));
}

/** x of a character of a line, in layout space. */
function xOf(page: PageText, line: TextLine, offset: number): number | undefined {
  const [span] = line.spans;
  const run = span && runInRange(page, span.offset + offset, span.offset + offset + 1);
  const word = run?.words[0];
  if (!run || !word) return undefined;
  return word.layoutBox.left + (run.box.left - word.box.left);
}

/**
 * The column a label heads: from halfway to what is left of it (the previous label on its line,
 * or the previous line of its row) to halfway to what is right of it.
 */
function labelColumn(page: PageText, hit: LabelHit, previous: LabelHit | undefined, next: LabelHit | undefined): Column {
  const { line } = hit;
  const row = page.rows[line.row] ?? [];
  const at = row.indexOf(line);
  const start = xOf(page, line, hit.start) ?? line.layoutBox.left;
  const labelEnd = xOf(page, line, Math.max(hit.start, hit.labelEnd - 1)) ?? start;
  let from = -Infinity;
  if (previous) from = ((xOf(page, line, Math.max(previous.start, previous.labelEnd - 1)) ?? start) + start) / 2;
  else if (row[at - 1]) from = row[at - 1]!.layoutBox.left + row[at - 1]!.layoutBox.width;
  let to = Infinity;
  if (next) to = (labelEnd + (xOf(page, line, next.start) ?? labelEnd)) / 2;
  else if (row[at + 1]) to = row[at + 1]!.layoutBox.left;
  return { from, to, labelLeft: start, height: line.layoutBox.height };
}

/** The stretch of a row under a label that holds its value, and where the label itself starts. */
interface Column {
  from: number;
  to: number;
  labelLeft: number;
  height: number;
}

/** Words of one cell stand closer than this many line heights apart. */
const CELL_GAP = 2;

/**
 * Of the words under a label, those of its own cell: where they fall in two groups far apart on
 * either side of the label's left edge, the group from that edge on. A grid of left-aligned labels
 * heads cells that run right to the next label, each value set at its cell's right edge
 * ("BASE DE CÁLCULO DO ICMS  VALOR DO ICMS" over "953,36  171,60"): the group left of the label is
 * the cell before it.
 */
function ownCell<W extends { layoutBox: { left: number; width: number } }>(words: W[], column: Column): W[] {
  const sorted = [...words].sort((a, b) => a.layoutBox.left - b.layoutBox.left);
  for (let k = 1; k < sorted.length; k++) {
    const before = sorted[k - 1]!.layoutBox;
    const after = sorted[k]!.layoutBox;
    const gap = after.left - (before.left + before.width);
    if (gap > CELL_GAP * column.height && before.left + before.width <= column.labelLeft && after.left + after.width > column.labelLeft) return sorted.slice(k);
  }
  return words;
}

/**
 * The cell under a label in the row of `below`: in `below` itself, else in another line of that
 * row (a header "Rechnungs-Nr.  Ausstellungsdatum" read as one line over values set apart, where
 * the line most under the header is the date's, not the number's).
 */
function cellUnder(page: PageText, below: TextLine, column: Column): TextRun | undefined {
  const own = cellBelow(below, column);
  if (own) return own;
  for (const other of page.rows[below.row] ?? []) {
    const cell = other === below ? undefined : cellBelow(other, column);
    if (cell) return cell;
  }
  return undefined;
}

/** The words of the line below whose centres lie in the column; the whole line when all do. */
function cellBelow(below: TextLine, column: Column): TextRun | undefined {
  const words = ownCell(
    below.words.filter((w) => {
      const centre = w.layoutBox.left + w.layoutBox.width / 2;
      return centre > column.from && centre < column.to && !/^[|[\]]$/.test(w.text);
    }),
    column,
  );
  if (words.length === below.words.length) return below;
  return words.length > 0 ? runOfWords(words) : undefined;
}

export function lineRightOf(page: PageText, line: TextLine): TextLine | undefined {
  const row = page.rows[line.row] ?? [];
  return row[row.indexOf(line) + 1];
}

/** A line below less tall than this share of its label's height is no value of it. */
const MIN_VALUE_HEIGHT = 0.5;

/**
 * The line under `line` that shares most of its width, or starts where it starts, in the next two
 * rows of text (rows of specks alone, a scanned table's ruling read as ":", do not count).
 */
export function lineBelow(page: PageText, line: TextLine, overBesideRows = false): TextLine | undefined {
  const a = line.layoutBox;
  // Much smaller than the label: a speck or a mark of the scan, not a value.
  const speck = (candidate: TextLine) => candidate.layoutBox.height < MIN_VALUE_HEIGHT * a.height;
  let rowsOfText = 0;
  // Under a totals row's header, rows whose text all lies beside its column (a paragraph of terms
  // to the left of the headers and their amounts) do not part the label from its cell: they are
  // skipped, a few at most, and the gap they fill is not counted. Under a table's header they
  // would: the rows beside it are the table's (a group's title), its amounts the items'.
  let besideRows = 0;
  let besideHeight = 0;
  const outsideColumn = (candidate: TextLine) => speck(candidate) || overlap(a.left, a.left + a.width, candidate.layoutBox.left, candidate.layoutBox.left + candidate.layoutBox.width) <= 0;
  for (let r = line.row + 1; r < page.rows.length && rowsOfText < 2; r++) {
    if (page.rows[r]!.every(speck)) continue;
    if (overBesideRows && rowsOfText === 0 && besideRows < MAX_ROWS_BESIDE && page.rows[r]!.every(outsideColumn)) {
      besideRows++;
      besideHeight += Math.max(...page.rows[r]!.map((l) => l.layoutBox.height));
      continue;
    }
    rowsOfText++;
    let best: TextLine | undefined;
    let bestShared = 0;
    for (const candidate of page.rows[r]!) {
      if (speck(candidate)) continue;
      const b = candidate.layoutBox;
      const shared = overlap(a.left, a.left + a.width, b.left, b.left + b.width) + (Math.abs(a.left - b.left) < a.height ? a.height : 0);
      if (shared > bestShared) [best, bestShared] = [candidate, shared];
    }
    if (!best) continue;
    const gap = best.layoutBox.top - (a.top + a.height) - (besideRows > 0 ? besideHeight + besideRows * a.height : 0);
    return gap <= MAX_BELOW_LINE_HEIGHTS * a.height ? best : undefined;
  }
  return undefined;
}

/**
 * The line to the right of `line` just below it, in type of about its size: a value OCR set a
 * little lower than its label; not the small print beside a large title ("42 Station Street"
 * right under the heading "Invoice").
 */
function lineRightBelow(page: PageText, line: TextLine): TextLine | undefined {
  const a = line.layoutBox;
  const next = page.rows[line.row + 1] ?? [];
  return next.find((candidate) => {
    const b = candidate.layoutBox;
    const similar = Math.max(a.height, b.height) / Math.min(a.height, b.height) <= 2;
    return similar && b.left >= a.left + a.width && b.top - (a.top + a.height) <= 0.6 * a.height;
  });
}

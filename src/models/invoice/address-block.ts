/**
 * The customer of a letter-style invoice that prints no label over it: the address block a window
 * envelope shows (a name, its street, its postcode and town), near the top of the page and apart
 * from the vendor's block. European letters set it so (DIN 5008, NEN 1026, the French "fenêtre");
 * a sender line above it may be missing, or lost to OCR in small print.
 */
import { ATTENTION, SALUTATION } from '../fields/label-hits.js';
import { findAmounts, findDates, plain } from '../fields/normalize.js';
import type { PageText, TextLine } from '../page/text/text-lines.js';
import { SENDER_LINE_SEPARATOR } from '../fields/vendor.js';

/** A postcode and its town, as the countries we read write them: "80331 München", "2042 AA Zandvoort", "1000-001 Lisboa", "Leeds LS6 2DD", "Seattle, WA 98101". */
const POSTCODE_LINE = [
  /^(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{L}{2}/u,
  /^\d{4}\s?[A-Z]{2}\s+\p{L}{2}/u,
  /^\d{4}-\d{3}\s+\p{L}{2}/u,
  /\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}$/,
  /\b[A-Z]{2}\s+\d{5}(?:-\d{4})?$/,
];

/** The block lies in this top share of the text on the page: the window of the envelope. */
const TOP_SHARE = 0.45;
/** Lines of an address block: a name, maybe a second name or an attention line, one or two street lines, the town, a British postcode of its own. */
const MAX_BLOCK_LINES = 6;

function isPostcodeLine(line: TextLine): boolean {
  const text = line.text.replace(/[,.]+$/, '').trim();
  return POSTCODE_LINE.some((pattern) => pattern.test(text));
}

/** A name: letters, no figures to speak of, no label, date or amount. */
function nameLike(line: TextLine): boolean {
  const text = plain(line.text).trim();
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters >= 3 && (text.match(/\d/g)?.length ?? 0) <= 0.1 * letters && !/[:@]/.test(text) && findDates(line.text).length === 0 && findAmounts(line.text).length === 0;
}

/** A line that is a date and little else. */
function isDateLine(line: TextLine): boolean {
  const [date] = findDates(line.text);
  return date !== undefined && date.length >= 0.6 * line.text.trim().length;
}

/** Whether `line` continues the block `above` belongs to: close below it, from the same left edge. */
function continues(above: TextLine, line: TextLine): boolean {
  const [a, b] = [above.layoutBox, line.layoutBox];
  const gap = b.top - (a.top + a.height);
  return line !== above && gap >= -0.3 * a.height && gap < 1.2 * a.height && Math.abs(b.left - a.left) < a.height;
}

/** `first` and the lines under it that continue its block. */
function blockUnder(page: PageText, first: TextLine): TextLine[] {
  const block = [first];
  for (const line of page.lines) {
    if (block.length >= MAX_BLOCK_LINES) break;
    if (continues(block.at(-1)!, line)) block.push(line);
  }
  return block;
}

/**
 * The first line of the unlabelled address block near the top of the page that is not the
 * vendor's: a name-like line heading a block (none right above it) whose third to fifth line is
 * the postcode and town. Nothing when the vendor is not known (the one block would as well be
 * the vendor's) or the name is printed again elsewhere (the vendor repeats its name in a
 * footer; a customer is named once).
 */
export function recipientInAddressBlock(page: PageText, vendorLine: TextLine | undefined): TextLine | undefined {
  if (!vendorLine || page.lines.length === 0) return undefined;
  const top = Math.min(...page.lines.map((l) => l.layoutBox.top));
  const bottom = Math.max(...page.lines.map((l) => l.layoutBox.top + l.layoutBox.height));
  const vendorKey = key(vendorLine.text);
  // A sender line over the block ("Huber GmbH · Lindenweg 7 · 80331 München", whole or as OCR
  // reads it in pieces) is not its name, nor what OCR left of a label over it ("Billed" of "Billed to").
  // Nor is the letter's date over it ("March 5th, 2024").
  const over = (other: TextLine) => senderLike(other) || crowded(page, other) || overTheName(plain(other.text).trim()) || isDateLine(other);
  for (const line of page.lines) {
    if (line.layoutBox.top > top + TOP_SHARE * (bottom - top)) continue;
    if (!nameLike(line) || over(line) || page.lines.some((other) => continues(other, line) && !over(other))) continue;
    const block = blockUnder(page, line);
    const postcodeAt = block.findIndex(isPostcodeLine);
    if (postcodeAt < 2 || block.includes(vendorLine)) continue;
    // Between the name and the town: streets, second names, attention lines; not a number alone
    // under a label (a box of account details), nor a labelled line.
    if (block.slice(1, postcodeAt).some((l) => !/\p{L}{2}/u.test(l.text) || (l.text.includes(':') && !ATTENTION.test(l.text)))) continue;
    const name = key(line.text);
    if (name === vendorKey || name.length < 4 || page.lines.some((other) => other !== line && key(other.text).includes(name))) continue;
    return line;
  }
  return undefined;
}

/**
 * A word of the labels over a customer's block, or the salutation a letter puts over the name
 * ("Herr" / "Thomas Meier", label-hits.ts SALUTATION), alone on its line: never the customer's name.
 */
const LABEL_WORD = /^(?:billed|bill|invoiced?|sold|ship(?:ped)?|deliver(?:ed|y)?|customer|client|cliente|kunde|klant|destinataire|empfanger|to|an|aan)\W*$/;
const overTheName = (text: string) => LABEL_WORD.test(text) || SALUTATION.test(text);

/**
 * A line with another close beside it on its row: a piece of a sender line OCR read in pieces
 * ("hreinerei Hi" / "1 GmbH -" / "Li" ...), not a line of the window, which stands alone on its side.
 */
function crowded(page: PageText, line: TextLine): boolean {
  const { left, width, height } = line.layoutBox;
  return (page.rows[line.row] ?? []).some((other) => other !== line && other.layoutBox.left > left && other.layoutBox.left - (left + width) < 3 * height);
}

const senderLike = (line: TextLine) => (line.text.match(SENDER_LINE_SEPARATOR)?.length ?? 0) > 0 || COMMA_SENDER_LINE.test(line.text);
/** A sender line with commas for dots: "Elektro Pichler GmbH, Hauptplatz 9, 8600 Bruck an der Mur". */
const COMMA_SENDER_LINE = /^[^,]+,[^,]+,\s*(?:[A-Z]{1,2}-)?\d{4,5}\s+\p{L}[^,\d]*$/u;

const key = (text: string) => plain(text).replace(/[^\p{L}\p{N}]+/gu, '');

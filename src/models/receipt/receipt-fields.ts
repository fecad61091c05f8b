/**
 * How a till receipt is read beyond its labels: the shop's name heads the receipt, its address
 * follows (after a registration number, before the phone and tax lines), and the lines of the
 * payment (cash tendered, change, rounding) check which amount was paid.
 */
import type { FieldCandidate } from '../fields/field-candidate.js';
import type { LabelHit } from '../fields/label-hits.js';
import { findAmounts, findDates, plain } from '../fields/normalize.js';
import { unionBox } from '../page/text/geometry.js';
import { respellAddressWords, respellKnownWords } from './known-words.js';
import { joinRuns, median, type PageText, type TextLine, type TextRun } from '../page/text/text-lines.js';
import { hasLegalForm } from '../fields/legal-form.js';
import { correctLegalForm, repairLegalForm } from '../fields/vendor.js';
import { CONFIRMED, receiptChecks } from './receipt-checks.js';

/** How many lines from the top a receipt's header (name, address, numbers) may take. */
const HEADER_LINES = 14;

/** A company registration number printed under the name ("(867388-U)", "Co. Reg. No: 123"): neither name nor address. */
const REGISTRATION = /^\(?\s*(?:(?:co(?:mpany)?\.?\s*(?:reg(?:istration)?\.?)?\s*(?:no\.?)?|roc|reg\.?\s*no\.?)\s*[:.]?\s*)?[\d\s]{4,}\s*-?\s*[a-z]?\s*\)?\.?$|^(?:co(?:mpany)?\.?\s*reg|roc\s*no|business\s*reg)/;
/** The contact and tax details that follow an address (also as other countries label them: SIRET, TVA, C.I.F., NIF, USt-IdNr, BTW). */
const CONTACT_OR_TAX =
  /\b(?:tel|phone|telephone|telefon[eo]?|fax|h\/p|hp|mobile|email|e-mail|website|gst|sst|tax|vat|reg(?:istration)?\s*no|siret|siren|tva|c\.?\s?i\.?\s?f|n\.?\s?i\.?\s?f|nipc|ust(?:-?id(?:nr)?)?|steuer\w*|mwst|btw|kvk|uid|p\.?\s?iva)\b|@|www\.|https?:/;
/** Lines after the address: contact and tax details, document titles. */
const AFTER_ADDRESS = new RegExp(`${CONTACT_OR_TAX.source}|\\b(?:invoice|receipt|cashier|counter|table|bill|order|date|time)\\b`);
/**
 * Words and shapes of addresses: numbers with streets, postcodes, unit and floor numbers; the
 * words of streets and buildings in English and Malay, and those of the other languages whose
 * receipts we read (for a street line printed without its number).
 */
const ADDRESS =
  /\d|\b(?:jalan|jln|lorong|taman|tmn|lot|no|blok|block|level|floor|flr|street|st|road|rd|avenue|ave|lane|drive|plaza|mall|centre|center|building|bangunan|kawasan|seksyen|section|bandar|persiaran|lebuh|kampung|kg|rue|boulevard|bd|chemin|allee|impasse|quai|calle|avenida|avda|paseo|carretera|rua|travessa|estrada|viale|piazza|strasse|straße|platz|gasse|straat|laan|steenweg)\b/;

function isTitleOrLabel(line: TextLine, labelled: ReadonlySet<TextLine>): boolean {
  return labelled.has(line) || isTitleLine(line);
}

/**
 * A tax or company number line of the header ("(GST Reg No. 001492992000)", "GST ID :0021...",
 * "BRN 123456-X"): it may stand between the name and the address, and is neither.
 */
const ID_LINE = /\b(?:gst|sst|tax|vat|tin|brn|roc|co|company|business|reg(?:istration)?|siret|siren|tva|c\.?\s?i\.?\s?f|n\.?\s?i\.?\s?f|nipc|ust(?:-?id(?:nr)?)?|steuer\w*|mwst|btw|kvk|uid|p\.?\s?iva)\b[^\d]{0,25}\d[\d\s-]{5,}/;

/** Name-like: letters, no date or amount, not mostly digits (a registration number after the name aside), not an address line. */
function nameLike(line: TextLine): boolean {
  const text = textForName(line).trim();
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  if (letters < 3 || findDates(line.text).length > 0 || findAmounts(line.text).some((a) => a.decimals)) return false;
  if (REGISTRATION.test(text) || AFTER_ADDRESS.test(text)) return false;
  // OCR turns letters of a name into digits ("99 SPEED N9R7 S/B"): a legal form allows more.
  return (text.match(/\d/g)?.length ?? 0) <= (hasLegalForm(text) ? 0.5 : 0.2) * letters;
}

/** A line's text for telling names: plain, without a trailing company number, legal form put right ("SDN 3HD"). */
function textForName(line: TextLine): string {
  return plain(repairLegalForm(stripRegistration(line.text)));
}

/** What follows a shop's name: its company or tax number, or its address. */
function headsAddress(line: TextLine): boolean {
  const text = plain(line.text).trim();
  return REGISTRATION.test(text) || ID_LINE.test(text) || addressLike(line);
}

/** A line that starts with a postcode and goes on with the town ("15000 KHEMISSET", "40170 Shah Alam", "1300-085 Lisboa"): the end of an address. */
function postcodeFirst(line: TextLine): boolean {
  return /^(?:\d{4,6}|\d{4}-\d{3})\s+\p{L}{2}/u.test(plain(line.text).trim()) && addressLike(line);
}

function addressLike(line: TextLine): boolean {
  const text = plain(line.text);
  return ADDRESS.test(text) && !AFTER_ADDRESS.test(text) && findDates(line.text).length === 0 && !findAmounts(line.text).some((a) => a.decimals);
}

/**
 * A receipt's own candidates beside the invoice model's: the shop's name and address from its
 * header (of the name-like lines near the top, the one with a legal form, or else the one right
 * above the address, in a larger print scoring more; a name may run on to a second line: "AIK HUAT
 * HARDWARE ENTERPRISE / (SETIA ALAM) SDN BHD"),
 * and the confirmations the receipt's print gives: of the header when it is laid out as a
 * company's, and of the date and the total (receipt-checks.ts).
 */
export function receiptCandidates(page: PageText, hits: readonly LabelHit[]): FieldCandidate[] {
  const labelledParts = new Set(hits.filter((h) => h.start === 0 && h.definition.strength >= 0.7).map((h) => h.line));
  const printed = printedLines(page).slice(0, HEADER_LINES);
  const lines = printed.map((p) => p.line);
  const labelled = new Set(printed.filter((p) => p.parts.some((part) => labelledParts.has(part))).map((p) => p.line));
  const typical = median(page.lines.map((l) => l.layoutBox.height));
  let best: { index: number; score: number } | undefined;
  for (const [index, line] of lines.entries()) {
    if (isTitleOrLabel(line, labelled) || !nameLike(line) || (addressLike(line) && !hasLegalForm(textForName(line)))) continue;
    // The header ends where the body starts: a date, or an amount in a line with words, before this
    // line (figures alone above the name are a logo or specks OCR read as figures, "1 8 0201.6").
    if (lines.slice(0, index).some((l) => findDates(l.text).length > 0 || (/\p{L}{2}/u.test(l.text) && findAmounts(l.text).some((a) => a.decimals)))) break;
    const text = textForName(line);
    const next = lines[index + 1];
    const afterNext = lines[index + 2];
    let score = 0.3 - 0.02 * index;
    if (hasLegalForm(text)) score += 0.35;
    if (next && headsAddress(next)) score += 0.2;
    // A street line without a number ("AUTOROUTE RABAT MEKNES") above the postcode line starts the address too.
    else if (next && afterNext && nameLike(next) && postcodeFirst(afterNext)) score += 0.2;
    // And such a line is itself the street, not the name, when a name-like line heads it.
    if (index > 0 && next && postcodeFirst(next) && nameLike(lines[index - 1]!)) score -= 0.1;
    if (next && afterNext && nameLike(next) && hasLegalForm(textForName(next)) && headsAddress(afterNext)) score += 0.15;
    if (line.layoutBox.height > 1.25 * typical) score += 0.1;
    if (line.text === line.text.toLowerCase()) score -= 0.25;
    if (!best || score > best.score) best = { index, score };
  }
  if (!best || best.score < 0.25) return receiptChecks(page, hits);
  const nameLines = wholeName(lines, best.index);
  const name = joinRuns(nameLines);
  const nameText = repairOcr(name, stripRegistration(name.text.replace(/\s+/g, ' ')), true);
  const found: FieldCandidate[] = [
    { category: 'VendorName', value: name, contentNormalized: nameText, score: Math.min(0.95, 0.45 + best.score), label: 0, labelLine: nameLines[0] },
  ];
  const afterName = lines.indexOf(nameLines.at(-1)!) + 1;
  const { address, closed } = addressAfter(lines, afterName, labelled);
  if (address.length > 0) {
    const run = joinRuns(address);
    found.push({ category: 'VendorAddress', value: run, contentNormalized: repairOcr(run, run.text.replace(/\s+/g, ' ').trim()), score: 0.7, label: 0, labelLine: address[0] });
  }
  // The header confirms itself when it is laid out as a company's: the name with its legal form
  // or its company number (on its line or the next ones), the address right after it; and the
  // address whole when a contact or tax line closes it.
  const registered = stripRegistration(name.text) !== name.text.trim() || lines.slice(afterName, afterName + 2).some((l) => REGISTRATION.test(plain(l.text).trim()) || ID_LINE.test(plain(l.text)));
  if (address.length > 0 && (hasLegalForm(nameText) || registered)) {
    found.push({ ...found[0]!, score: CONFIRMED, confirms: true });
    if (closed) found.push({ ...found[1]!, score: CONFIRMED, confirms: true });
  }
  return [...found, ...receiptChecks(page, hits)];
}

/** Pieces of one row closer than this many line heights are one line of print, not two columns. */
const PRINTED_LINE_GAP = 3;

/**
 * The page's lines as the header prints them: a centred header line that OCR cut into pieces
 * where its letters stand wide apart ("ALAM) SDN" + "BHD", "AIK" + "HUAT" + "HARDWARE") is one
 * line again. Pieces of a row join when they are of the same print and close; a speck beside a
 * line ("5" in a smaller print) or a column far away stays apart.
 */
function printedLines(page: PageText): Array<{ line: TextLine; parts: TextLine[] }> {
  return page.rows.flatMap((row) => {
    const joined: TextLine[][] = [];
    for (const line of row) {
      const group = joined.at(-1);
      const previous = group?.at(-1);
      if (group && previous && samePrintedLine(previous, line)) group.push(line);
      else joined.push([line]);
    }
    return joined.map((parts) => ({ line: parts.length === 1 ? parts[0]! : { ...joinRuns(parts), row: parts[0]!.row, layoutBox: unionBox(parts.map((p) => p.layoutBox)) }, parts }));
  });
}

function samePrintedLine(left: TextLine, right: TextLine): boolean {
  const [a, b] = [left.layoutBox, right.layoutBox];
  const height = Math.max(a.height, b.height);
  const gap = b.left - (a.left + a.width);
  const pieceOfText = (line: TextLine) => (line.text.match(/\p{L}/gu)?.length ?? 0) >= 2;
  return height / Math.min(a.height, b.height) < 1.25 && gap < PRINTED_LINE_GAP * height && pieceOfText(left) && pieceOfText(right);
}

/** A legal form that ends a company's name ("SDN BHD", "S/B"), not a trade word inside it ("TRADING"). */
const NAME_END = /(?:\bbhd\.?|\bs\/b|\bltd\.?|\blimited|\bplc|\binc\.?|\bllc|\bgmbh|\bb\.?v\.?|\bs\.?a\.?|\bpte\.?)\s*$/;

/**
 * The lines of a shop's name around the line found: a name set over two or three lines of the
 * same print ("AIK HUAT HARDWARE" / "ENTERPRISE (SETIA ALAM)" / "SDN BHD") runs from a line that
 * starts it to the line that ends it with its legal form.
 */
function wholeName(lines: readonly TextLine[], index: number): TextLine[] {
  const name = [lines[index]!];
  const similar = (a: TextLine, b: TextLine) => Math.max(a.layoutBox.height, b.layoutBox.height) / Math.min(a.layoutBox.height, b.layoutBox.height) < 1.4;
  const part = (line: TextLine | undefined, neighbour: TextLine) => line !== undefined && nameLike(line) && !addressLike(line) && !isTitleLine(line) && similar(line, neighbour);
  // A line that reads as a continuation ("ENTERPRISE (SETIA", "(M) SDN BHD", "ALAM) SDN BHD") has its start above.
  for (let i = index - 1; i >= 0 && name.length < MAX_NAME_LINES; i--) {
    const first = plain(name[0]!.text).trim();
    const continuation = /^[(&]/.test(first) || first.split(/\s+/).length <= 2 || hasLegalForm(first.split(/\s+/)[0] ?? '') || unbalanced(first, ')');
    if (!continuation || !part(lines[i], name[0]!)) break;
    name.unshift(lines[i]!);
  }
  for (let i = index + 1; i < lines.length && name.length < MAX_NAME_LINES; i++) {
    const last = plain(name.at(-1)!.text).trim();
    const next = lines[i]!;
    // A second line right above the company number or the address ("RESTAURANT JIAWEI" / "JIAWEI HOUSE" / "(002693074-K)") ends the name.
    // Not a line above the postcode line: that is the street ("RELAIS TOTAL OULMES" / "AUTOROUTE RABAT MEKNES" / "15000 KHEMISSET").
    const aboveAddress = name.length === 1 && !NAME_END.test(last) && lines[i + 1] !== undefined && headsAddress(lines[i + 1]!) && !postcodeFirst(lines[i + 1]!) && !addressLike(next);
    const continues = /[&(-]$/.test(last) || unbalanced(last, '(') || /^[(&]/.test(next.text.trim()) || (!NAME_END.test(last) && hasLegalForm(textForName(next))) || aboveAddress;
    if (!continues || !part(next, name.at(-1)!)) break;
    name.push(next);
  }
  return name;
}

const MAX_NAME_LINES = 3;

/** More of `bracket` in the text than of its pair: a "(" the next line closes, a ")" the line above opened. */
function unbalanced(text: string, bracket: '(' | ')'): boolean {
  return text.split(bracket).length > text.split(bracket === '(' ? ')' : '(').length;
}

/** Document titles and greetings that head a receipt, in the languages of the receipts we read: never the shop. */
const TITLE_LINE =
  /^(?:tax\s+invoice|invoice|receipt|official\s+receipt|cash\s+(?:sale|bill)|simplified|welcome|thank|ticket|facture|factura|fatura|fattura|rechnung|kassenbon|quittung|beleg|recibo|scontrino|kassabon|bon\s+de\s+caisse|(?:herzlich\s+)?willkommen|bienvenu|bienvenid|benvenut|bem-vind|welkom)/;

function isTitleLine(line: TextLine): boolean {
  return TITLE_LINE.test(plain(line.text));
}

/**
 * "AEON CO. (M) BHD (126926-H)" -> "AEON CO. (M) BHD": a trailing company number, also as OCR
 * spoils it ("(1B9386 X)", "(2 49336-T)", "(I39386 X)"): mostly digits, four at least.
 */
export function stripRegistration(name: string): string {
  const stripped = name.replace(/\s*\(\s*(?:co\.?\s*(?:reg\.?\s*)?no\.?\s*:?\s*)?([\dA-Z\s-]{4,16})\)?\s*$/i, (whole, inside: string) => ((inside.match(/\d/g)?.length ?? 0) >= Math.max(4, 0.6 * inside.replace(/[\s-]/g, '').length) ? '' : whole));
  return stripped.replace(/\s*(?:co\.?\s*(?:reg\.?\s*)?no\.?\s*:?\s*)?\d{4,}[\s-]*[A-Za-z]?\s*$/i, '').trim();
}

/**
 * A name or an address as printed, as far as the shapes of its words and the words it is made of
 * tell, when OCR read it; a text layer says what is printed, and only a legal form the document
 * misspells is put right there.
 */
function repairOcr(run: TextRun, text: string, name = false): string {
  // A text layer's words have confidence 1 (field-choice.ts tells them so too).
  if (!run.words.some((w) => w.confidence < 0.999)) return name ? correctLegalForm(text) : text;
  const repaired = (name ? respellKnownWords : respellAddressWords)(fixOcrConfusions(text));
  return name ? repairLegalForm(repaired) : repaired;
}

/**
 * The usual OCR confusions of digits, letters and signs put right by the word's own shape, in
 * names and addresses. Codes that mix letters and digits on purpose ("U13/BG", "SS4C/5", "PJU6A",
 * "31G") keep them: a digit is read as a letter only inside a run of letters, and a letter as a
 * digit only inside a run of digits.
 */
export function fixOcrConfusions(text: string): string {
  return bracketReadAsC(
    text
      // A lone ideograph in Latin text is a speck read by a recogniser that knows Chinese.
      .replace(/(?<=[A-Za-z.,)]\s?)\s\p{Script=Han}(?=\s[A-Za-z(])/gu, '')
      // A 0 inside a word is an O ("L0T", "C0MPANY"); an O or o inside a number a 0 ("4330O", "403oo").
      .replace(/(?<=\p{L})0+(?=\p{L})|(?<=\p{L}{2})0(?![\p{L}\p{N}])|(?<![\p{L}\p{N}])0(?=\p{L}{2})/gu, (zeros) => 'O'.repeat(zeros.length))
      .replace(/(?<![\p{L}])\d+[Oo][\dOo]*(?![\p{L}])/gu, (number) => ((number.match(/\d/g)?.length ?? 0) >= 2 ? number.replace(/[Oo]/g, '0') : number))
      // A 1 between lower case letters is an l ("Ja1an", "Leve1").
      .replace(/(?<=\p{Ll})1(?=\p{Ll})|(?<=\p{Ll}{2})1(?![\p{L}\p{N}])/gu, 'l')
      // A capital I after a word's first capital and before lower case is an l ("BIk", "JIn",
      // "FIoor"); so is one ending a word of lower case ("HoteI"). Not one inside a word: OCR joins
      // words, and "PizzaItalia" is two.
      .replace(/(?<=(?<![\p{L}\p{N}])\p{Lu})I(?=\p{Ll})|(?<=\p{Ll}{2})I(?![\p{L}\p{N}])/gu, 'l')
      // A 5 or an 8 inside a word of capitals is an S or a B ("ANG5A", "CHEE5E"): the word's only
      // digit, with three letters on one side at least (a code such as "U5" or "SS4C" has fewer, or another digit).
      .replace(/(?<![\p{L}\p{N}])\p{Lu}+[58]\p{Lu}+(?![\p{L}\p{N}])/gu, (word) => {
        const [before = '', after = ''] = word.split(/[58]/);
        return Math.max(before.length, after.length) >= 3 ? word.replace('5', 'S').replace('8', 'B') : word;
      })
      // A B or an I between digits is an 8 or a 1 ("2B11").
      .replace(/(?<=\d)B(?=\d)/g, '8')
      .replace(/(?<=\d)[Il](?=\d)/g, '1')
      // A postcode whose 1 OCR read as a letter and cut there ("40t 50 Shah Alam"): five digits again, the town after them.
      .replace(/(?<![\p{L}\p{N}])(\d{1,4})[tIl|i]\s?(\d{1,4})(?=,?\s+\p{L}{2})/gu, (whole, head: string, tail: string) => (head.length + tail.length === 4 ? `${head}1${tail}` : whole))
      // "&" read as 8 between two unit numbers of the same shape ("31G833G": units 31G and 33G).
      .replace(/(?<![\p{L}\p{N}])(\d{2,4})(\p{Lu})8(\d{2,4})\2(?![\p{L}\p{N}])/gu, (whole, first: string, letter: string, second: string) => (first.length === second.length ? `${first}${letter}&${second}${letter}` : whole))
      // "C0." is the legal form "CO.".
      .replace(/\bC0(?=\.)/g, 'CO')
  );
}

/**
 * An opening bracket read as a C ("ENTERPRISE CSETIA ALAM) SDN BHD", "AEON CO. CM) BHD"): a ")"
 * that closes nothing, and the nearest word before it in capitals starting with a C.
 */
function bracketReadAsC(text: string): string {
  let fixed = text;
  for (const close of text.matchAll(/\)/g)) {
    const before = fixed.slice(0, close.index);
    const open = before.lastIndexOf('(');
    if (open > before.lastIndexOf(')')) continue;
    const stretch = before.slice(Math.max(open, before.lastIndexOf(')'), close.index - 30) + 1);
    const word = [...stretch.matchAll(/(?<![\p{L}\p{N}])C(?=\p{Lu}+(?![\p{Ll}\p{N}]))/gu)].at(-1);
    if (word) {
      const at = close.index - stretch.length + word.index;
      fixed = `${fixed.slice(0, at)}(${fixed.slice(at + 1)}`;
    }
  }
  return fixed;
}

/** Name-like lines that may stand between a shop's name and its address (second name, branch, former name). */
const MAX_SKIPPED_NAME_LINES = 3;

/**
 * The address lines after the name: registration numbers skipped, up to the contact and tax lines;
 * `closed` when such a line ends it, rather than a line of another kind or the header's end.
 */
function addressAfter(lines: readonly TextLine[], from: number, labelled: ReadonlySet<TextLine>): { address: TextLine[]; closed: boolean } {
  const address: TextLine[] = [];
  let skippedNames = 0;
  for (let i = from; i < lines.length && address.length < 6; i++) {
    const line = lines[i]!;
    const text = plain(line.text).trim();
    // Specks the OCR read as a line (".", "-") are nothing.
    if ((text.match(/[\p{L}\p{N}]/gu)?.length ?? 0) < 2) continue;
    // Company and tax numbers, and the date a printer set beside the header, may come before the address.
    if (address.length === 0 && (REGISTRATION.test(text) || ID_LINE.test(text) || isDateOnly(line.text))) continue;
    // A bare telephone number ("07-355 2616") ends the address as a "Tel:" line does.
    // So does a long number (a tax number whose label OCR spoiled): postcodes and street numbers are short.
    if (labelled.has(line) || AFTER_ADDRESS.test(text) || /^[\d\s()+./-]{7,}$/.test(text) || /\d{8,}/.test(text) || findDates(line.text).length > 0 || findAmounts(line.text).some((a) => a.decimals)) {
      return { address, closed: address.length > 0 && (CONTACT_OR_TAX.test(text) || /^[\d\s()+./-]{7,}$/.test(text) || /\d{8,}/.test(text) || ID_LINE.test(text)) };
    }
    // A street without a number is the address's first line when the postcode line follows it.
    const streetLine = lines[i + 1] !== undefined && postcodeFirst(lines[i + 1]!);
    if (address.length === 0 && !addressLike(line) && !streetLine) {
      // A second name line, a branch name or a former name ("formerly known as" / "Golden Arches
      // Restaurants Sdn Bhd" / "Licensee of McDonald's") may sit between the name and the address.
      if (skippedNames < MAX_SKIPPED_NAME_LINES && nameLike(line)) {
        skippedNames++;
        continue;
      }
      break;
    }
    address.push(line);
  }
  return { address, closed: false };
}


/** A line that holds a date (and a time) and nothing else. */
function isDateOnly(text: string): boolean {
  const [date] = findDates(text);
  return date !== undefined && /^[\s\d:.apm]*$/i.test(text.slice(0, date.index) + text.slice(date.index + date.length));
}

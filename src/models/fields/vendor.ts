/**
 * Who issued the document when no label says so: the line that reads as a company name (a legal
 * form, a larger font, at the top or in the footer's legal line) heading a block of address, tax
 * number, IBAN or contact lines, outside the customer's block, and not a title or a label. When
 * nothing reads that way the vendor stays not detected: a title is never a vendor.
 */
import { overlap, unionBox } from '../page/text/geometry.js';
import { findIbans } from './identifiers.js';
import { hasSmudgedWord, SMUDGE_CONFIDENCE } from './field-candidate.js';
import { isInBlockOf } from './party-blocks.js';
import { SALUTATION, type LabelHit } from './label-hits.js';
import { AFTER_THE_NAME, hasLegalForm, LEGAL_FORM } from './legal-form.js';
import { findAmounts, findDates, plain } from './normalize.js';
import { afterCodes, subRun } from './field-values.js';
import { joinRuns, median, runOfWords, type PageText, type PlacedWord, type TextLine, type TextRun } from '../page/text/text-lines.js';

/**
 * A company name with the OCR's usual misreadings of its legal form put right ("SON BHD",
 * "SDN 3HD" -> "SDN BHD"): the form is a closed vocabulary, so its letters are known.
 */
export function correctLegalForm(name: string): string {
  return name.replace(/\b(S[DO0B8][NM])(\.?\s*)([B83GRE]H[DO0])\b/gi, (_, sdn: string, between: string, bhd: string) => {
    const upper = sdn === sdn.toUpperCase() && bhd === bhd.toUpperCase();
    return `${upper ? 'SDN' : 'Sdn'}${between}${upper ? 'BHD' : 'Bhd'}`;
  });
}

/**
 * A name's legal form as OCR spoils it, beyond what correctLegalForm knows: the middle H of
 * "BHD" keeps it when the rest is misread ("SDN HHU"), and the slash of "S/B" tells it at the
 * name's end ("5/D", "S/8"). For names OCR read; a text layer's get correctLegalForm alone.
 */
export function repairLegalForm(name: string): string {
  return correctLegalForm(name)
    .replace(/\b(S[DO0B8][NM]\.?\s*)[A-Z0-9]H[A-Z0-9]\b/g, '$1BHD')
    .replace(/\b(S[do0][nm]\.?\s*)[A-Za-z0-9]h[a-z0-9]\b/g, '$1Bhd')
    .replace(/(?<![\p{L}\p{N}])[S5$][/|][B8DE3]\.?$/u, 'S/B');
}

/** Document titles and other headings that are never the vendor. */
const TITLE =
  /^(?:tax\s+|commercial\s+|proforma\s+|pro\s*forma\s+|simplified\s+)?(?:invoice|bill|receipt|statement|quotation|quote|credit\s+note|debit\s+note|facture|rechnung|factuur|fattura|factura|fatura|recibo|ticket|nota|original|copy|duplicate|duplicado|page|pagina|seite|welcome|thank\s+you|cash\s+(?:sale|bill)|official\s+receipt|sales\s+receipt|tax\s+invoice|returns?(?:\s+(?:note|slip|form))?|delivery\s+note|packing\s+(?:slip|list)|lieferschein|bon\s+de\s+livraison|verkoopfactuur|fatura-recibo|factura\s+simplificada|faktura|danovy\s+doklad|lasku|szamla|rachunek)\b/;

/**
 * A bill's or statement's section heading, never its issuer: words addressed to the reader ("YOUR
 * ELECTRICITY CHARGES", "Ihre Verbrauchsübersicht", "Votre facture", "Uw verbruik"), or, set in
 * capitals as headings are, naming a section of figures ("SUMMARY OF CHARGES", "BILLING
 * INFORMATION", "METER READINGS").
 */
const READER_HEADING = /^(?:your|ihre?|votre|vos|uw|il\s+tuo|la\s+tua|il\s+suo|la\s+sua)\s+\p{L}/u;
const FIGURES_HEADING = /\b(?:charges|summary|information|readings|consumption|usage|zusammenfassung|ubersicht|verbrauch|resume|consommation|releves?)\b/u;

function isSectionHeading(printed: string): boolean {
  const text = plain(printed).trim();
  return READER_HEADING.test(text) || (FIGURES_HEADING.test(text) && !/\p{Ll}/u.test(printed));
}

/** A line that carries contact details, an address or a tax number: the body of a party's block. */
const BLOCK_DETAIL =
  /@|www\.|https?:|\b(?:tel|phone|fax|mobile|email|e-mail|vat|gst|gstin|sst|tax|ust|btw|tva|iva|nif|cif|uid|mwst|iban|bic|swift|kvk|siret|p\.?\s?iva|reg(?:istration)?\.?\s*no|co\.?\s*reg)\b|\b\d{4,6}\b|\b(?:street|st\.|road|rd\.|avenue|ave\.|lane|drive|straße|strasse|strabe|str\.|weg|laan|straat|gracht|rue|avenue|boulevard|via|viale|corso|piazza|calle|avenida|paseo|rua|jalan|jln|lot|taman|floor|suite|unit|building)\b/;

export interface VendorGuess {
  line: TextLine;
  run: TextRun;
  /** 0..1. */
  score: number;
}

function isDetailLine(text: string): boolean {
  return BLOCK_DETAIL.test(plain(text)) || findIbans(text).length > 0;
}

/** Why a line cannot be a name at all: a title, a label, a date, an amount, contact details. */
function cannotBeName(line: TextLine, labelled: ReadonlySet<TextLine>): boolean {
  const text = plain(line.text).trim();
  if (labelled.has(line)) return true;
  if (!/\p{L}{2}/u.test(text) || text.length > 70) return true;
  if ((TITLE.test(text) || isSectionHeading(line.text)) && !hasLegalForm(text)) return true;
  if (findDates(line.text).length > 0 || findAmounts(line.text).some((a) => a.decimals)) return true;
  if (/@|www\.|https?:|^\+?\d[\d\s()-]{6,}$/.test(text)) return true;
  // A first word with a colon is a label or a heading's lead-in ("Neu: Online Shop", "Hinweis: ..."), not a name.
  if (/^\p{L}+\s*:\s/u.test(text)) return true;
  // A Japanese addressee: the honorific after the customer's name ("Example Company 御中", "山田太郎 様").
  if (ADDRESSEE_HONORIFIC.test(text)) return true;
  // Mostly digits: an address number, a phone, a postcode line.
  return (text.match(/\d/g)?.length ?? 0) > 0.3 * text.replace(/\s/g, '').length;
}

/** The honorifics Japanese documents put after the name they are addressed to: the customer, never the issuer. */
const ADDRESSEE_HONORIFIC = /(?:御中|様|殿)$/u;

/**
 * The first segment of a footer or sender line ("Acme GmbH · Hauptstr. 1 · 10115 Berlin"): the
 * name before the first separator (OCR reads a small dot as "_" too).
 */
function firstSegment(page: PageText, line: TextLine): TextRun | undefined {
  const separators = [...line.text.matchAll(/\s+[·•|_]\s+|\s+-\s+(?=\p{L})/gu)];
  const [first, second] = separators;
  if (!first || first.index < 3) return undefined;
  // A dash inside the name ("Tecnirega - Sistemas de Rega, Lda."): the segment up to the legal form.
  const legalAfterDash = first[0].includes('-') && !hasLegalForm(line.text.slice(0, first.index)) && hasLegalForm(line.text.slice(0, second?.index ?? line.text.length));
  const end = legalAfterDash ? (second?.index ?? line.text.length) : first.index;
  // The company's share capital or branch, which a legal line prints after its name: not the name.
  const after = AFTER_THE_NAME.exec(line.text.slice(0, end));
  return subRun(page, line, 0, after && after.index >= 3 ? after.index : end);
}


/**
 * The best guess of the vendor's name on a page, or undefined. `customerLines` are the lines of
 * the customer's label (their blocks are the customer's); `hits` are the labels found, whose
 * lines are fields, not names.
 */
export function guessVendor(page: PageText, hits: readonly LabelHit[], customerLines: readonly TextLine[], customerNames: ReadonlySet<string>): VendorGuess | undefined {
  const labelled = new Set(hits.filter((h) => h.start === 0 && h.definition.category !== 'VendorName').map((h) => h.line));
  // Lines that are a label and nothing else ("From" over "Quillmetric, Inc."): no part of a name.
  const labelOnly = new Set(hits.filter((h) => h.start === 0 && h.valueStart >= h.line.text.trimEnd().length).map((h) => h.line));
  const heights = page.lines.map((l) => l.layoutBox.height);
  const typical = median(heights);
  const pageBottom = Math.max(...page.lines.map((l) => l.layoutBox.top + l.layoutBox.height));
  const pageTop = Math.min(...page.lines.map((l) => l.layoutBox.top));
  const span = Math.max(1, pageBottom - pageTop);
  const domains = printedDomains(page.lines);
  const guesses: VendorGuess[] = [];
  const places = placeNames(page);
  for (const line of page.lines) {
    const inCustomerBlock = customerLines.some((heading) => isInBlockOf(heading, line));
    if (inCustomerBlock) continue;
    // A town or a country on a line of its own is an address's end, or a logo's place name ("APOTHEKE" / "PADERBORN").
    if (places.has(plain(line.text).replace(/[^\p{L}]+/gu, ' ').trim()) || (REGION_END.test(plain(line.text).trim()) && !hasLegalForm(line.text))) continue;
    const segment = firstSegment(page, line);
    const run: TextRun = afterCodes(page, segment ?? withoutLogoLetters(line));
    const text = plain(run.text).trim();
    // An address or contact line heads no block: it is part of one.
    if (!segment && (cannotBeName(line, labelled) || (isDetailLine(line.text) && !hasLegalForm(text)))) continue;
    if (segment && (!/\p{L}{3}/u.test(text) || TITLE.test(text))) continue;
    // Letters OCR could not read are no name a reviewer can use.
    if (hasSmudgedWord(run)) continue;
    if (customerNames.has(text)) continue;
    const legal = hasLegalForm(text);
    const position = (line.layoutBox.top - pageTop) / span;
    const top = position < 0.3;
    const footer = position > 0.85;
    const large = line.layoutBox.height >= 1.3 * typical;
    const details = blockDetails(page, line);
    let score = 0.15;
    if (legal) score += 0.35;
    if (large) score += 0.15;
    if (top) score += 0.15 * (1 - position / 0.3);
    if (footer && (segment || details > 0)) score += 0.1;
    score += Math.min(details, 3) * 0.08;
    // The vendor's name repeats (letterhead, sender line, footer) and its letters make its e-mail or web domain.
    score += Math.min(2, repeats(page, line, text)) * 0.12;
    if (domains.some((domain) => text.replace(/[^a-z]/g, '').startsWith(domain.slice(0, Math.min(domain.length, 8))) && domain.length >= 4)) score += 0.15;
    if (segment && (isDetailLine(line.text) || legal)) score += 0.15;
    // A legal line names the company before its address, tax number and IBAN: the vendor's.
    if (segment && footer && isDetailLine(line.text)) score += 0.1;
    if (!top && !footer && !legal) score -= 0.2;
    guesses.push({ line, run, score: Math.min(1, score) });
  }
  // Best first; a legal form standing alone ("SARL" set apart from its name) names nobody.
  for (const guess of guesses.filter((g) => g.score >= MIN_VENDOR_SCORE).sort((a, b) => b.score - a.score)) {
    const named = fullerName(guess, guesses) ?? guess;
    const start = withWrappedStart(page, named, labelOnly);
    if (!start) continue;
    const run = withWrappedEnd(page, start);
    if (nameWords(run.text).length > 0) return { ...named, run };
  }
  return undefined;
}

/**
 * The web and mail domains of these lines, letters only ("festrolcorp" of "www.festrolcorp.io").
 * OCR may lose the "www" of a small print ("we .delphin-apo.de"), which a country's or a common
 * top-level domain after the name still tells.
 */
function printedDomains(lines: readonly TextLine[]): string[] {
  return lines.flatMap((line) =>
    [...line.text.matchAll(/(?:@|www\.|(?<![\p{L}\p{N}@.-])\.?(?=[a-z0-9-]{4,}\.(?:com|net|org|eu|de|at|ch|fi|fr|be|nl|it|es|pt|se|no|dk|pl|cz|uk|au|us|ca|in|my)\b))([a-z0-9-]+)\./giu)].map((m) => plain(m[1]!).replace(/[^a-z]/g, '')),
  );
}

/**
 * Whether a web or mail domain printed outside the customer's blocks spells the vendor's name
 * whole, its legal form apart ("Festrol Corp Ltd." and festrolcorp.io, "Lieferant GmbH & Co. KG"
 * and lieferant.de): the name found a second time, by its owner's address rather than by its place
 * on the page. Every letter must match, so a misread name is not confirmed by its domain.
 */
export function domainSpellsName(page: PageText, name: string, customerLines: readonly TextLine[]): boolean {
  // A word before a colon labels something ("cronus: ..."); one in lower case only is a word of the
  // text (a handle, the domain itself), not a company's name as its letterhead prints it.
  if (/:\s*$/.test(name) || !/\p{Lu}/u.test(name)) return false;
  const outside = page.lines.filter((line) => !customerLines.some((heading) => isInBlockOf(heading, line)));
  const domains = new Set(printedDomains(outside));
  return nameSpellings(name).some((spelling) => spelling.length >= 4 && domains.has(spelling));
}

/** A name's letters, then without its last word while that is a legal form or no word ("festrolcorpltd", "festrolcorp", "festrol"). */
function nameSpellings(name: string): string[] {
  const words = plain(name).split(/[\s,]+/).filter(Boolean);
  const spellings: string[] = [];
  while (words.length > 0) {
    spellings.push(words.join('').replace(/[^a-z0-9]/g, ''));
    const last = words.at(-1)!;
    if (words.length === 1 || (/[a-z]{2}/.test(last) && !hasLegalForm(` ${last} `))) break;
    words.pop();
  }
  return spellings;
}

/**
 * A town and its province or state after a comma, an address's end ("KITCHENER, ONTARIO", "Austin,
 * TX", "Perth, Western Australia"): the provinces and territories of Canada and the states of
 * Australia by name, any region by its two-letter code (not a legal form after a comma: "Acme, SA").
 */
const REGION_END =
  /^[\p{L}\s.'-]{2,40},\s*(?:ontario|quebec|british\s+columbia|alberta|manitoba|saskatchewan|nova\s+scotia|new\s+brunswick|newfoundland(?:\s+and\s+labrador)?|prince\s+edward\s+island|yukon|nunavut|northwest\s+territories|new\s+south\s+wales|victoria|queensland|south\s+australia|western\s+australia|tasmania|northern\s+territory|[a-z]{2})\.?$/u;

/** Countries as addresses end with them, in English and in their own languages. */
const COUNTRIES = [
  'australia', 'new zealand', 'united states', 'usa', 'united kingdom', 'uk', 'great britain', 'england', 'ireland', 'canada', 'india', 'malaysia',
  'singapore', 'germany', 'deutschland', 'austria', 'osterreich', 'switzerland', 'schweiz', 'suisse', 'svizzera', 'france', 'belgium', 'belgique',
  'belgie', 'netherlands', 'nederland', 'luxembourg', 'italy', 'italia', 'spain', 'espana', 'portugal', 'finland', 'suomi', 'sweden', 'sverige',
  'norway', 'norge', 'denmark', 'danmark', 'poland', 'polska', 'czech republic', 'czechia', 'cesko', 'hungary', 'magyarorszag', 'china', 'japan',
  'brazil', 'brasil', 'mexico', 'south africa',
];

/**
 * The towns of the page's postcode lines ("33102 Paderborn", "D-10115 Berlin", "Brisbane City QLD
 * 4000"'s town is not taken: only a town after its postcode) and the countries: names of places,
 * never a vendor's name on a line alone.
 */
function placeNames(page: PageText): Set<string> {
  const places = new Set(COUNTRIES);
  for (const line of page.lines) {
    const town = /^(?:[A-Z]{1,2}\s?-\s?)?\d{4,5}\s+(\p{L}[\p{L}\s.-]{1,30})$/u.exec(line.text.trim());
    if (town) places.add(plain(town[1]!).replace(/[^\p{L}]+/gu, ' ').trim());
  }
  return places;
}

/**
 * A line without the large letters of a logo that open it ("KV" set big beside the name's last
 * line "Supply Co."): words at least 1.6 times as tall as the rest of the line's.
 */
function withoutLogoLetters(line: TextLine): TextRun {
  const heights = line.words.map((w) => w.layoutBox.height);
  const rest = median(heights.slice(1));
  let start = 0;
  while (start < line.words.length - 1 && heights[start]! >= 1.6 * rest) start++;
  return start === 0 ? line : runOfWords(line.words.slice(start));
}

/** The words of a name besides its legal form. */
function nameWords(text: string): string[] {
  return plain(text).replace(LEGAL_FORM, ' ').trim().split(/\s+/).filter((w) => /\p{L}{2}/u.test(w));
}

/**
 * A logo or a running head prints the short form of the name ("CONSULTORIA" over "Consultoria
 * Costa"): its repeats make it score, but the name is the fuller line that starts with the same
 * words, when that line reads as a name too, or that holds them with a legal form the short one
 * lacks ("BAUMANN HYDRAULIK" in the letterhead, "Heinrich Baumann Hydraulik GmbH" in the footer).
 * It keeps the short form's score, which its repeats earned.
 */
function fullerName(best: VendorGuess, guesses: readonly VendorGuess[]): VendorGuess | undefined {
  const words = (run: TextRun) => plain(run.text).split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const short = words(best.run);
  if (short.join('').length < 4) return undefined;
  const fuller = guesses
    .filter((g) => g !== best && g.score >= MIN_VENDOR_SCORE && g.line !== best.line && !isDetailLine(g.run.text))
    .filter((g) => {
      const long = words(g.run);
      // A legal line goes on with the capital or a number ("SARL au capital de 10 000 €"): no name does.
      const more = long.slice(short.length);
      if (long.length <= short.length || more.some((word) => /\d|^capital/.test(word))) return false;
      if (short.every((word, i) => long[i] === word)) return true;
      const at = long.indexOf(short[0]!);
      return at > 0 && short.every((word, i) => long[at + i] === word) && hasLegalForm(g.run.text) && !hasLegalForm(best.run.text);
    })
    .sort((a, b) => b.score - a.score)[0];
  return fuller && { ...fuller, score: best.score };
}

/**
 * A name set in a narrow box wraps: "ATLAS CONSULTING" over "ENTERPRISES". When the line found is
 * little more than a legal form, the line just above it in the same type and column starts the name;
 * undefined when that line is a section heading, whose first row the line found is.
 */
function withWrappedStart(page: PageText, guess: VendorGuess, labelOnly: ReadonlySet<TextLine>): TextRun | undefined {
  const { line, run } = guess;
  if (nameWords(run.text).length >= 2) return run;
  // The name's own words: not a logo's letters beside it (withoutLogoLetters).
  const b = run.words.length > 0 ? unionBox(run.words.map((w) => w.layoutBox)) : line.layoutBox;
  const size = median((run.words.length > 0 ? run.words : line.words).map((w) => w.layoutBox.height));
  // The nearest line above, in the same type, left- or right-aligned with it or overlapping it:
  // only its leading words of that type, since OCR may glue a neighbour's words to it.
  const above = page.lines
    .filter((candidate) => candidate !== line && candidate.layoutBox.top < b.top && !labelOnly.has(candidate))
    .map((candidate) => ({ candidate, words: leadingWordsOfSize(candidate, size) }))
    .filter(({ words }) => {
      if (words.length === 0) return false;
      const a = unionBox(words.map((w) => w.layoutBox));
      const gap = b.top - (a.top + a.height);
      const aligned = Math.abs(a.left - b.left) < 2 * b.height || Math.abs(a.left + a.width - (b.left + b.width)) < 2 * b.height;
      return gap > -0.3 * b.height && gap < 0.8 * b.height && aligned;
    })
    .sort((x, y) => y.candidate.layoutBox.top - x.candidate.layoutBox.top)[0];
  if (!above) return run;
  const start = runOfWords(above.words);
  // A word under a section heading ("YOUR ELECTRICITY CHARGES" over "Electricity") is the section's first row, no name.
  if (isSectionHeading(start.text)) return undefined;
  return /\p{L}{2}/u.test(start.text) && findDates(start.text).length === 0 && !holdsCodeOrLabel(start.text) && !endsInHouseNumber(start.text) ? joinRuns([start, run]) : run;
}

/** A street and its number ("Salomonkatu 15", "Hauptstr. 1", "Bulevardi 6a"): the address above a footer's name, not its first words. */
function endsInHouseNumber(text: string): boolean {
  return /\p{L}{3,}\.?\s+\d{1,4}\s?[a-z]?$/iu.test(text.trim());
}

/**
 * A line holding a label's colon or a long number ("GLN 4333741000005 Lief-Nr: 549910", "Art
 * der Rechnung: REG") is a party's identifier or a form's row above the name, never its first words.
 */
function holdsCodeOrLabel(text: string): boolean {
  return /:|\d{4,}/.test(text);
}

/**
 * A name whose line ends in "&" or "and" goes on in the line under it, in its type ("Shree Ganesh
 * Hardware &" / "Paints"), when that line holds words and no figures.
 */
function withWrappedEnd(page: PageText, run: TextRun): TextRun {
  if (!/(?:&|\band|\bund|\bet|\ben|\be|\by)\s*$/i.test(run.text) || run.words.length === 0) return run;
  const b = unionBox(run.words.map((w) => w.layoutBox));
  const size = median(run.words.map((w) => w.layoutBox.height));
  const below = page.lines
    .filter((l) => l.layoutBox.top > b.top && l.layoutBox.top - (b.top + b.height) < 0.8 * size && overlap(b.left, b.left + b.width, l.layoutBox.left, l.layoutBox.left + l.layoutBox.width) > 0)
    .sort((x, y) => x.layoutBox.top - y.layoutBox.top)[0];
  if (!below || /\d/.test(below.text)) return run;
  const words = leadingWordsOfSize(below, size);
  return words.length > 0 ? joinRuns([run, runOfWords(words)]) : run;
}

/**
 * The words a line starts with that were read (not smudges, nor marks but an ampersand) and are
 * set in type of about this size (their median within a quarter of it; a single word may stand
 * taller by a descender).
 */
function leadingWordsOfSize(line: TextLine, size: number): PlacedWord[] {
  const leading: PlacedWord[] = [];
  for (const word of line.words) {
    const h = word.layoutBox.height;
    if (Math.max(h, size) / Math.min(h, size) >= 1.6 || word.confidence < SMUDGE_CONFIDENCE || !/[\p{L}\p{N}&]/u.test(word.text)) break;
    leading.push(word);
  }
  const typical = median(leading.map((w) => w.layoutBox.height));
  return leading.length > 0 && Math.max(typical, size) / Math.min(typical, size) < 1.25 ? leading : [];
}

/** How many other lines print this name (a sender line, a footer): a customer's name is printed once. */
function repeats(page: PageText, line: TextLine, name: string): number {
  const key = name.replace(/[^\p{L}\p{N}]+/gu, '');
  if (key.length < 5) return 0;
  return page.lines.filter((other) => other !== line && plain(other.text).replace(/[^\p{L}\p{N}]+/gu, '').includes(key)).length;
}

/** The dots between the parts of a sender line, and what OCR reads for them in small print (a dash, a plus, a star). */
export const SENDER_LINE_SEPARATOR = /\s[·•|∙*+\-–—]\s/g;

/**
 * The first line of the address a window envelope shows: the block right under a small sender
 * line ("Acme GmbH · Hauptstr. 1 · 10115 Berlin"), as German, Dutch and French letters print it.
 */
export function recipientUnderSenderLine(page: PageText): TextLine | undefined {
  const typical = median(page.lines.map((l) => l.layoutBox.height));
  const top = Math.min(...page.lines.map((l) => l.layoutBox.top));
  const bottom = Math.max(...page.lines.map((l) => l.layoutBox.top + l.layoutBox.height));
  for (const line of page.lines) {
    // A footer's line of details ("IBAN ... · BIC ...") heads no address.
    if (line.layoutBox.top > top + FOOTER_SHARE * (bottom - top)) continue;
    // Small print by its words' height: OCR may read a dash of the line as a tall mark.
    const size = median(line.words.map((w) => w.layoutBox.height));
    // A dot OCR was unsure of may come out as another mark of its own (":", "«").
    const misreadDots = line.words.filter((w) => /^[^\p{L}\p{N}\s·•|∙*+\-–—]$/u.test(w.text) && w.confidence < 0.9).length;
    const separators = (line.text.match(SENDER_LINE_SEPARATOR)?.length ?? 0) + misreadDots;
    if (separators < 2 || size > typical) continue;
    const under = (above: TextLine) =>
      page.lines.find((candidate) => {
        const a = above.layoutBox;
        const b = candidate.layoutBox;
        const gap = b.top - (a.top + a.height);
        return gap >= -0.2 * a.height && gap < 2 * b.height && Math.abs(a.left - b.left) < 2 * b.height && candidate !== above;
      });
    const first = under(line);
    // "Herrn" / "Dr. Matthias Ohlendorf": the salutation's line only says who the name is.
    const below = first && SALUTATION.test(plain(first.text).trim()) ? under(first) : first;
    if (below && /\p{L}{2}/u.test(below.text) && !isDetailLine(below.text)) return below;
  }
  return undefined;
}

/** The bottom share of a page's text a footer takes. */
const FOOTER_SHARE = 0.75;

/** Below this a line is only some text near the top, not a name we can vouch for. */
const MIN_VENDOR_SCORE = 0.45;

/**
 * What parts a one-line address or footer ("2210 River Road · Sacramento, CA 95833") separates:
 * dots, bars, dashes, and the colons and quotes OCR reads small dots as.
 */
const DETAIL_SEPARATOR = /\s+[·•|∙\-–—:«»]\s+/u;

/**
 * How many address or contact details the (up to four) lines under `line`, in its column, hold.
 * Each is the nearest line below the one before, by position rather than by the page's rows: a
 * tall title beside a block (a big "INVOICE" level with a letterhead) makes a row of its own
 * between two of the block's lines.
 */
function blockDetails(page: PageText, line: TextLine): number {
  let count = 0;
  let previous = line;
  for (let n = 0; n < 4; n++) {
    const { top, height } = previous.layoutBox;
    const next = page.lines
      .filter((candidate) => candidate.layoutBox.top > top && isInBlockOf(previous, candidate) && candidate.layoutBox.top - (top + height) < 1.6 * height)
      .sort((a, b) => a.layoutBox.top - b.layoutBox.top)[0];
    if (!next) break;
    // A one-line address ("2210 River Road · Sacramento, CA 95833 · (916) 555-0199") holds several details.
    const details = next.text.split(DETAIL_SEPARATOR).filter((segment) => isDetailLine(segment)).length;
    count += Math.max(details, isDetailLine(next.text) ? 1 : 0);
    previous = next;
  }
  return count;
}


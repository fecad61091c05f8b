/**
 * Accents of names read by OCR. A page is OCRed with its language hint, English by default, and
 * the English model has no accented letters: "Haustechnik Krüger" comes back "Haustechnik Kruger",
 * "Informática" as "Informatica". The few names a reviewer reads (vendor, customer) are read
 * again from the page's pixels with the models of the accented languages, all in one small OCR
 * run, and their accents are taken only where the second reading spells the same letters.
 */
import { stackCrops } from '../../engines/image.js';
import { ocrImage, tesseractLanguage, type OcrWord } from '../../engines/ocr.js';
import { growBox } from '../page/text/geometry.js';
import { hasSmudgedWord } from '../fields/field-candidate.js';
import { OCR_DPI, type SourcePage } from '../page/page-reader.js';
import { mean, type TextRun } from '../page/text/text-lines.js';

/** The installed models that spell accents; English is left out, whose reading the page has already. */
const ACCENTED_LANGUAGES = ['fr', 'de', 'es', 'pt'] as const;
type AccentedLanguage = (typeof ACCENTED_LANGUAGES)[number];

/**
 * What tells a page's language in its text, accents folded (an English OCR reads "Página" as
 * "Pagina"): common words no other of these languages spells alike, and the accented letters only
 * it uses (on a text layer, which keeps them).
 */
const LANGUAGE_SIGNS: Readonly<Record<AccentedLanguage | 'en', { words: ReadonlySet<string>; letters: RegExp }>> = {
  pt: { words: new Set(['da', 'do', 'dos', 'em', 'ao', 'fatura', 'obrigado', 'pagamento', 'vencimento', 'emissao', 'quantidade', 'descricao', 'morada', 'contribuinte', 'nao', 'faturar', 'preco', 'dados']), letters: /[ãõ]/gu },
  es: { words: new Set(['del', 'los', 'las', 'el', 'y', 'factura', 'fecha', 'importe', 'gracias', 'pago', 'cantidad', 'vencimiento', 'concepto', 'facturar', 'su', 'precio', 'datos', 'imponible']), letters: /[ñ¿¡]/gu },
  fr: { words: new Set(['le', 'les', 'du', 'des', 'et', 'au', 'facture', 'merci', 'montant', 'paiement', 'echeance', 'quantite', 'prix', 'tva', 'ht', 'ttc']), letters: /[èëîïûùœÿ]/gu },
  de: { words: new Set(['der', 'die', 'und', 'rechnung', 'datum', 'betrag', 'gesamt', 'zahlbar', 'bitte', 'vielen', 'dank', 'menge', 'summe', 'netto', 'mwst', 'seite', 'von', 'fur', 'bis', 'zu', 'zahlen']), letters: /[äöüß]/gu },
  en: { words: new Set(['the', 'and', 'of', 'to', 'for', 'your', 'invoice', 'due', 'amount', 'thank', 'you', 'payment', 'description', 'quantity', 'price', 'bill', 'page']), letters: /(?!)/gu },
};

/** How many more signs than the next language make a page's language sure. */
const LANGUAGE_MARGIN = 2;

/**
 * The accented languages to read a page's names in: the page's own language when its text says
 * which (a model of the right language does not put a German "ö" where Portuguese has "õ"), else
 * all of them (an English page, a name from another country: any may spell it).
 */
export function readingLanguages(pageText: string): AccentedLanguage[] {
  const words = pageText.split(/\s+/).map(foldAccents).filter(Boolean);
  const lower = pageText.toLowerCase();
  const scores = (Object.keys(LANGUAGE_SIGNS) as Array<keyof typeof LANGUAGE_SIGNS>)
    .map((language) => {
      const { words: signs, letters } = LANGUAGE_SIGNS[language];
      return { language, score: words.filter((w) => signs.has(w)).length + 3 * (lower.match(letters)?.length ?? 0) };
    })
    .sort((a, b) => b.score - a.score);
  const [first, second] = scores;
  if (!first || first.language === 'en' || first.score < 3 || first.score < LANGUAGE_MARGIN * (second?.score ?? 0)) return [...ACCENTED_LANGUAGES];
  return [first.language];
}
/** Whether OCR in this language (BCP 47 or tesseract code) spells accents: those of ACCENTED_LANGUAGES do. */
export function spellsAccentsIn(language: string): boolean {
  const model = (tag: string) => {
    try {
      return tesseractLanguage(tag);
    } catch {
      return undefined; // not installed: the page was not read with it either
    }
  };
  const code = model(language);
  return code !== undefined && ACCENTED_LANGUAGES.some((accented) => model(accented) === code);
}

const lettersOf = (text: string) => [...text.normalize('NFC').toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c));
const accentedLetter = (char: string) => char.normalize('NFD') !== char;

/** The accented letters each language writes. */
const ALPHABETS: Readonly<Record<AccentedLanguage, RegExp>> = {
  de: /[äöüß]/u,
  fr: /[àâæçéèêëîïôœùûüÿ]/u,
  es: /[áéíóúñü]/u,
  pt: /[áâãàçéêíóôõú]/u,
};

/**
 * Whether a reading has an accented letter the page's language does not write ("Séhne" on a
 * German page): English OCR's guess at a letter it could not read, so the name is read again.
 */
function foreignAccents(text: string, languages: readonly AccentedLanguage[]): boolean {
  if (languages.length !== 1) return false;
  const letters = [...text.normalize('NFC').toLowerCase()].filter((c) => accentedLetter(c));
  return letters.some((c) => !ALPHABETS[languages[0]!].test(c));
}

/** Crops are scaled so that their words are this tall in pixels (cap height to descender). */
const CROP_WORD_HEIGHT = 48;
/** White between the stacked crops, so each comes back as its own line. */
const CROP_GAP = 32;

/** Letters without accents, lower case, nothing but letters and digits: "Krüger" and "KRUGER" fold alike. */
export function foldAccents(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * For each run (a name read by OCR on this page), its accented words by their unaccented
 * reading ("Kruger" -> "Krüger"), where the accented languages' models read the same letters
 * with accents; and for a name OCR could not read (a smudged word: "samba Keone" on a
 * low-resolution scan), the whole name by its first reading, where the second, of the name
 * alone and enlarged, reads it surely ("James Kumar"). Runs of a text layer, or that have
 * accents already and were read well, are not read again.
 */
export async function accentedWords(page: SourcePage, runs: readonly TextRun[]): Promise<Map<string, string>> {
  const languages = readingLanguages(page.words.map((w) => w.text).join(' '));
  const wanted = runs.filter(
    (run) =>
      run.words.length > 0 &&
      run.words.some((w) => w.confidence < 0.999) &&
      /\p{L}/u.test(run.text) &&
      (/^[\p{ASCII}]*$/u.test(run.text) || hasSmudgedWord(run) || foreignAccents(run.text, languages)),
  );
  const accented = new Map<string, string>();
  if (wanted.length === 0) return accented;
  const crops = await Promise.all(
    wanted.map(async (run) => {
      const { pixels, unitsPerPixel } = await page.pixels(OCR_DPI, growBox(run.box, run.box.height * 0.25));
      return { pixels, scale: CROP_WORD_HEIGHT / Math.max(1, run.box.height / unitsPerPixel) };
    }),
  );
  const { png: stacked, bands } = await stackCrops(crops, CROP_GAP);
  const read = await ocrImage(stacked, { languages, layout: 'column' });
  wanted.forEach((run, i) => {
    const band = bands[i]!;
    const inBand = read.words.filter((w) => w.box.top + w.box.height / 2 >= band.top && w.box.top + w.box.height / 2 < band.bottom);
    const original = run.text.split(/\s+/).filter(Boolean);
    if (hasSmudgedWord(run)) {
      const reread = sureMiddleLine(inBand, (band.top + band.bottom) / 2);
      if (reread) accented.set(original.join(' '), reread);
      return;
    }
    const words = sameWords(inBand, original);
    if (!words) return;
    original.forEach((word, w) => {
      const respelled = knownSpelling(words[w]!);
      const better = !/^[\p{ASCII}]*$/u.test(respelled) || (DIGIT_IN_LETTERS.test(word) && !DIGIT_IN_LETTERS.test(respelled));
      if (respelled !== word && better && sameLetters(respelled, word)) accented.set(word, matchCase(respelled, word));
    });
  });
  return accented;
}

/** The words of an OCR reading by the line tesseract set them on. */
function ocrLines(read: readonly OcrWord[]): Map<string, OcrWord[]> {
  const lines = new Map<string, OcrWord[]>();
  for (const word of read) {
    const key = `${word.block}.${word.paragraph}.${word.line}`;
    lines.set(key, [...(lines.get(key) ?? []), word]);
  }
  return lines;
}

/** OCR's confidence in every word of a second reading that makes it replace a first one it could not read. */
const SURE_REREAD = 0.85;

/**
 * The line of a second reading in the middle of its crop (the crop is centred on the name; a
 * neighbour's line may show at its edges), when OCR read each of its words surely.
 */
function sureMiddleLine(read: readonly OcrWord[], middle: number): string | undefined {
  const lines = ocrLines(read);
  const centre = (words: readonly OcrWord[]) => mean(words.map((w) => w.box.top + w.box.height / 2));
  const line = [...lines.values()].sort((a, b) => Math.abs(centre(a) - middle) - Math.abs(centre(b) - middle))[0];
  if (!line || !line.every((w) => w.confidence >= SURE_REREAD) || !/\p{L}{2}/u.test(line.map((w) => w.text).join(' '))) return undefined;
  return line
    .sort((a, b) => a.box.left - b.box.left)
    .map((w) => w.text)
    .join(' ');
}

/** A digit beside a letter inside a word: English OCR reads an "ö" as "6" ("S6hne"), never a name's spelling. */
const DIGIT_IN_LETTERS = /\p{L}\d|\d\p{L}/u;

/**
 * Whether a second reading spells the same letters as the first, where the first could not spell
 * an accented letter: in its place the first may have read any one letter or digit ("Miller",
 * "S6hne") or two narrow letters ("Miinchen"); elsewhere a letter where the first read a digit
 * beside letters. Accents aside, the letters must be the same.
 */
function sameLetters(reread: string, first: string): boolean {
  const [again, once] = [lettersOf(reread), lettersOf(first)];
  let j = 0;
  for (const [k, char] of again.entries()) {
    const read = once[j];
    if (read === undefined) return false;
    // Two narrow letters for one accented letter only where the letters left then come out even.
    const split = /^[il]{2}$/.test(once.slice(j, j + 2).join('')) && once.length - (j + 2) === again.length - (k + 1);
    if (foldAccents(char) === foldAccents(read)) j += 1;
    else if (accentedLetter(char)) j += split ? 2 : 1;
    else if (/\d/.test(read) && (/\p{L}/u.test(once[j - 1] ?? '') || /\p{L}/u.test(once[j + 1] ?? ''))) j += 1;
    else return false;
  }
  return j === once.length;
}

/**
 * The second reading of a run's words: in one of the lines the crop shows (it may catch a bit of
 * the line under the name), the words that are the same, letter for letter but for accents and
 * digits read among letters. Nothing else is taken from the second reading.
 */
function sameWords(read: readonly OcrWord[], original: readonly string[]): string[] | undefined {
  const lines = ocrLines(read);
  for (const line of lines.values()) {
    const texts = line.sort((a, b) => a.box.left - b.box.left).map((w) => w.text);
    for (let start = 0; start + original.length <= texts.length; start++) {
      const window = texts.slice(start, start + original.length);
      if (window.every((text, i) => sameLetters(text, original[i]!))) return window;
    }
  }
  return undefined;
}

/**
 * Words of names whose accented spelling is fixed (the Swiss legal form "Sàrl"): when the second
 * reading sees an accent on one, it is that accent, whichever mark the OCR drew.
 */
const FIXED_SPELLINGS: ReadonlyMap<string, string> = new Map([['sarl', 'sàrl']]);

function knownSpelling(word: string): string {
  const fixed = FIXED_SPELLINGS.get(foldAccents(word));
  return fixed && !/^[\p{ASCII}]*$/u.test(word) ? matchCase(fixed, word) : word;
}

/** The words of `text` that `accented` knows, respelled; a name read again whole, as read again. */
export function withAccents(text: string, accented: ReadonlyMap<string, string>): string {
  if (accented.size === 0) return text;
  return accented.get(text.split(/\s+/).filter(Boolean).join(' ')) ?? text.replace(/\S+/g, (word) => accented.get(word) ?? word);
}

/** The accented reading in the case of the first reading ("KRÜGER" for "KRUGER" even if read "Krüger"). */
function matchCase(accented: string, original: string): string {
  const letters = [...accented.normalize('NFC')];
  if (letters.length !== original.length) return accented;
  // A letter where the first reading had a digit keeps the case it was read in.
  return letters.map((letter, i) => (!/\p{L}/u.test(original[i]!) ? letter : original[i] === original[i]!.toUpperCase() ? letter.toUpperCase() : letter.toLowerCase())).join('');
}

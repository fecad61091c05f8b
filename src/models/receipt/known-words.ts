/**
 * Words that shop names and addresses are made of, to put right a letter OCR misread in them
 * ("HARDMARE" -> "HARDWARE", "Perindustrlan" -> "Perindustrian", "CONFECTIUNERY" ->
 * "CONFECTIONERY"). Like the legal forms, these words are a closed vocabulary, so a long word one
 * letter away from exactly one of them is that word; a name the vocabulary does not hold (a
 * family name, a brand) is left as read.
 */

/** Trade and business words in the names of shops and companies (English, Malay, French, Spanish, Portuguese, Italian, German, Dutch). */
const TRADE_WORDS = [
  'RESTAURANT', 'RESTAURANTS', 'RESTORAN', 'RESTAURANTE', 'RISTORANTE', 'HARDWARE', 'STATIONERY', 'STATIONERS', 'CONFECTIONERY', 'BAKERIES',
  'ENTERPRISE', 'ENTERPRISES', 'TRADING', 'TRADERS', 'HOLDINGS', 'INDUSTRIES', 'INDUSTRIAL', 'INTERNATIONAL', 'CORPORATION', 'COMPANY',
  'LIMITED', 'MARKETING', 'SERVICES', 'SERVICE', 'ELECTRICAL', 'ELECTRONICS', 'ENGINEERING', 'FURNITURE', 'PHARMACY', 'SUPERMARKET',
  'HYPERMARKET', 'MINIMARKET', 'SUPERSTORE', 'BOOKSTORE', 'BOUTIQUE', 'CATERING', 'SEAFOOD', 'KITCHEN', 'STATION', 'TELECOMMUNICATIONS',
  'COMMUNICATIONS', 'DEVELOPMENT', 'MANAGEMENT', 'DISTRIBUTION', 'DISTRIBUTORS', 'AUTOMOTIVE', 'MACHINERY', 'PRINTING', 'OPTICAL',
  'MEDICAL', 'HEALTHCARE', 'FASHION', 'TEXTILE', 'TEXTILES', 'PRODUCTS', 'SUPPLIES', 'GENERAL', 'BUILDING', 'MATERIALS', 'CONSTRUCTION',
  'CHEMICAL', 'HOUSEWARE', 'GROCERY', 'GROCERIES', 'MERCHANT', 'MERCHANDISE', 'WHOLESALE', 'DEPARTMENT', 'CONVENIENCE',
  'SYARIKAT', 'PERNIAGAAN', 'PERUSAHAAN', 'PERKHIDMATAN', 'PASARAYA', 'FARMASI', 'BOULANGERIE', 'PATISSERIE', 'PHARMACIE', 'BOUCHERIE',
  'SUPERMARCHE', 'TRAITEUR', 'BRASSERIE', 'FARMACIA', 'PANADERIA', 'PASTELARIA', 'PASTELERIA', 'SUPERMERCADO', 'APOTHEKE', 'BAECKEREI',
  'METZGEREI', 'GASTSTAETTE', 'SUPERMARKT', 'BAKKERIJ', 'SLAGERIJ', 'DROGISTERIJ', 'KOPITIAM', 'MAKANAN', 'MINUMAN', 'ACCESSORIES',
  'EQUIPMENT', 'SOLUTIONS', 'TECHNOLOGY', 'TECHNOLOGIES', 'RESOURCES', 'VENTURES', 'NETWORK', 'SYSTEMS', 'LOGISTICS', 'PETROLEUM',
  'VEGETARIAN', 'CAFETERIA', 'DIGITAL', 'COMPUTER', 'COMPUTERS', 'FLORIST', 'JEWELLERY', 'BOOKSHOP', 'CHARCUTERIE', 'EPICERIE',
  'LIBRAIRIE', 'HYPERMARCHE', 'MAGASIN', 'BACKEREI', 'KONDITOREI', 'GASTSTATTE', 'GETRANKE', 'BUCHHANDLUNG', 'CARNICERIA',
  'FERRETERIA', 'LIBRERIA', 'ALIMENTACION', 'PAPELERIA', 'PADARIA', 'MERCEARIA', 'DROGARIA', 'PANIFICIO', 'PASTICCERIA',
  'TABACCHERIA', 'SALUMERIA', 'ALIMENTARI', 'TRATTORIA', 'PIZZERIA', 'OSTERIA', 'GELATERIA', 'CARTOLERIA', 'FERRAMENTA', 'APOTHEEK',
  'BOEKHANDEL',
];

/** Words of addresses: streets, areas, buildings, and the states and regions they name. */
const ADDRESS_WORDS = [
  'KAWASAN', 'PERINDUSTRIAN', 'SEKSYEN', 'PERSIARAN', 'LEBUHRAYA', 'KAMPUNG', 'BANGUNAN', 'KOMPLEKS', 'PERDAGANGAN', 'INDUSTRI',
  'SELANGOR', 'KELANTAN', 'TERENGGANU', 'SARAWAK', 'SEMBILAN', 'PERSEKUTUAN', 'WILAYAH', 'LUMPUR', 'DAMANSARA', 'PETALING', 'PUTRAJAYA',
  'SHOPPING', 'BASEMENT', 'BOULEVARD', 'INDUSTRIAL', 'BUSINESS', 'COMMERCIAL', 'PARKWAY', 'HIGHWAY', 'APARTMENT',
  'AVENIDA', 'STRASSE', 'STRAAT', 'CHAUSSEE', 'TEMENGGUNG', 'MAHKOTA', 'PERUMAHAN', 'PELANGI',
];

/**
 * Place names of two short words each, and the abbreviations addresses use before a street or
 * area name. A word alone may be another word ("Alan", "Java"); read beside its pair, one
 * look-alike letter from the phrase is a misreading of it ("SHAH ALAN" -> "SHAH ALAM").
 */
const ADDRESS_PHRASES = [
  'SHAH ALAM', 'SETIA ALAM', 'PETALING JAYA', 'SUBANG JAYA', 'BANDAR UTAMA', 'JOHOR BAHRU', 'KOTA BHARU', 'KUALA LUMPUR', 'DARUL EHSAN',
  'DARUL TAKZIM', 'DARUL AMAN', 'DARUL KHUSUS', 'NEGERI SEMBILAN', 'PULAU PINANG', 'ALOR SETAR', 'KOTA KINABALU', 'BUKIT JALIL',
  'BANDAR BARU', 'SERI KEMBANGAN', 'KUALA TERENGGANU', 'GEORGE TOWN',
];
/** Street and area words that head most addresses where they are used: put back whole when a letter of theirs was read as a dot or a space ("JA.AN"). */
const ADDRESS_HEADWORDS = ['JALAN', 'TAMAN', 'BANDAR', 'LORONG', 'KAMPUNG'];
/** Abbreviations of street and area words: read before a name, "TNN INDAH" is "TMN INDAH". */
const ADDRESS_ABBREVIATIONS = ['JLN', 'TMN', 'LRG', 'BDR', 'KPG'];
/** Short words of place names in Malay addresses (north, south, new, hill, river, centre...): words, though no English ones. */
const PLACE_WORDS = ['UTARA', 'SELATAN', 'TIMUR', 'BARAT', 'TENGAH', 'INDAH', 'JAYA', 'BARU', 'LAMA', 'BUKIT', 'SUNGAI', 'PUSAT', 'PERDANA', 'UTAMA', 'RAYA', 'DESA', 'SERI', 'PUTERI', 'MUTIARA', 'PELABUHAN'];

/**
 * Every word of these vocabularies: words a shop's name or address may print though no English
 * dictionary holds them ("PERINDUSTRIAN", "ALAM", "TMN"). PP-OCR checks the words it is unsure of
 * against them and English (paddle-ocr.ts), and must not respell them into English ("ALAM" -> "ALAN").
 */
export const NAME_AND_ADDRESS_WORDS: readonly string[] = [
  ...new Set([...TRADE_WORDS, ...ADDRESS_WORDS, ...ADDRESS_PHRASES.flatMap((p) => p.split(' ')), ...ADDRESS_HEADWORDS, ...ADDRESS_ABBREVIATIONS, ...PLACE_WORDS]),
];

/** Below this length a word one letter off may be another real word ("CARE", "CAKE"). */
const MIN_LENGTH = 7;

/** Words of a vocabulary by their length. */
function byLength(words: Iterable<string>): Map<number, string[]> {
  const lengths = new Map<number, string[]>();
  for (const word of words) lengths.set(word.length, [...(lengths.get(word.length) ?? []), word]);
  return lengths;
}

const KNOWN = new Set([...TRADE_WORDS, ...ADDRESS_WORDS].filter((w) => w.length >= MIN_LENGTH));
const KNOWN_BY_LENGTH = byLength(KNOWN);
const ABBREVIATIONS_BY_LENGTH = byLength(ADDRESS_ABBREVIATIONS);
const JOINABLE = new Set([...KNOWN, ...ADDRESS_HEADWORDS]);
const JOINABLE_BY_LENGTH = byLength(JOINABLE);
const PHRASES = ADDRESS_PHRASES.map((phrase) => phrase.split(' '));

/**
 * Letters OCR takes for one another, in capitals or lower case (m/w, o/u/c/d, i/l/t, p/f/b/e):
 * a word one such letter away from a known word is that word; one a letter of another shape away
 * is a word of its own ("CHOPPING" is not "SHOPPING").
 */
const LOOK_ALIKE = ['MWNH', 'OUDQCG', 'ILJT', 'PFRBEK', 'CEG', 'VYU'];

function lookAlike(a: string, b: string): boolean {
  return LOOK_ALIKE.some((group) => group.includes(a) && group.includes(b));
}

/**
 * Pairs of letters OCR reads one letter as ("Temeriggung" for "TEMENGGUNG": the N's strokes
 * apart), and that letter.
 */
const SPLIT_LETTERS: ReadonlyArray<readonly [string, string]> = [['RI', 'N'], ['RN', 'M'], ['IN', 'M'], ['CL', 'D'], ['LI', 'H'], ['VV', 'W']];

/** Whether `read` is `known` with one look-alike letter, one letter read as two, or one letter lost. */
function misreads(read: string, known: string): boolean {
  if (read.length === known.length - 1) return [...known].some((_, at) => known.slice(0, at) + known.slice(at + 1) === read);
  if (read.length === known.length) {
    const differences = [...known].flatMap((letter, i) => (letter === read[i] ? [] : [[letter, read[i]!] as const]));
    return differences.length === 1 && lookAlike(...differences[0]!);
  }
  if (read.length !== known.length + 1) return false;
  return SPLIT_LETTERS.some(([pair, letter]) => {
    for (let at = known.indexOf(letter); at >= 0; at = known.indexOf(letter, at + 1)) {
      if (read === known.slice(0, at) + pair + known.slice(at + 1)) return true;
    }
    return false;
  });
}

/** The known word `word` misreads by one letter, when exactly one is that close. */
function knownWordFor(word: string): string | undefined {
  const upper = word.toUpperCase();
  if (upper.length < MIN_LENGTH || KNOWN.has(upper)) return undefined;
  // A word that lacks a known word's last letter is a word of its own ("HOLDING", "PRODUCT").
  const lengths = [upper.length - 1, upper.length, upper.length + 1];
  const close = lengths.flatMap((length) => KNOWN_BY_LENGTH.get(length) ?? []).filter((known) => misreads(upper, known) && !known.startsWith(upper));
  return close.length === 1 ? close[0] : undefined;
}

/**
 * The known word (or address headword) two runs of letters make with the one letter between them
 * read as a space or a dot ("SE ANGOR" -> "SELANGOR", "JA.AN" -> "JALAN"), in the case of the
 * first run; never two known words of their own.
 */
function joinedWordFor(before: string, after: string): string | undefined {
  const [a, b] = [before.toUpperCase(), after.toUpperCase()];
  if (JOINABLE.has(a) || JOINABLE.has(b)) return undefined;
  const close = (JOINABLE_BY_LENGTH.get(a.length + b.length + 1) ?? []).filter((known) => known.startsWith(a) && known.endsWith(b));
  return close.length === 1 ? inCaseOf(close[0]!, before) : undefined;
}

/**
 * The phrase `words` misread, if any: one word of it misread (misreads), or both words of a
 * phrase long enough that two misread letters leave it the only one near ("SEIIA ALA").
 */
function knownPhraseFor(words: readonly string[]): readonly string[] | undefined {
  const upper = words.map((w) => w.toUpperCase());
  return PHRASES.find((phrase) => {
    if (phrase.length !== upper.length) return false;
    const differing = phrase.flatMap((word, i) => (word === upper[i] ? [] : [i]));
    const allowed = phrase.join('').length >= TWO_MISREAD_PHRASE ? 2 : 1;
    return differing.length >= 1 && differing.length <= allowed && differing.every((at) => upper[at]!.length >= 2 && misreads(upper[at]!, phrase[at]!));
  });
}

/** A phrase of this many letters or more may be read with a letter wrong in each of its two words. */
const TWO_MISREAD_PHRASE = 9;

/** `known` in the case `read` was printed in: capitals, a capital first, or lower case. */
function inCaseOf(known: string, read: string): string {
  if (read === read.toUpperCase()) return known;
  if (read[0] === read[0]!.toUpperCase()) return known[0] + known.slice(1).toLowerCase();
  return known.toLowerCase();
}

/** `text` with each word one letter away from a known word spelled as that word. */
export function respellKnownWords(text: string): string {
  return text.replace(/(?<![\p{L}\p{N}])\p{L}+(?![\p{L}\p{N}])/gu, (word) => {
    const known = knownWordFor(word);
    return known ? inCaseOf(known, word) : word;
  });
}

/**
 * An address with its words respelled as in respellKnownWords, and besides: a letter read as a
 * space or a dot inside a long known word put back, place names of two words and the
 * abbreviations before a name misread by one look-alike letter spelled right.
 */
export function respellAddressWords(text: string): string {
  const joined = respellPairs(text, /^[ .]$/, (before, after) => joinedWordFor(before, after));
  const phrased = respellPairs(joined, /^\s+$/, (first, second, between) => {
    const known = knownPhraseFor([first, second]);
    return known && `${inCaseOf(known[0]!, first)}${between}${inCaseOf(known[1]!, second)}`;
  });
  const abbreviated = phrased.replace(/(?<![\p{L}\p{N}])\p{L}{3}(?=\s+\p{L}{3})/gu, (word) => {
    const upper = word.toUpperCase();
    if (ADDRESS_ABBREVIATIONS.includes(upper)) return word;
    const close = (ABBREVIATIONS_BY_LENGTH.get(upper.length) ?? []).filter((known) => misreads(upper, known));
    return close.length === 1 ? inCaseOf(close[0]!, word) : word;
  });
  return respellKnownWords(abbreviated);
}

/**
 * `text` with each pair of words `between` separates that `respell` has a reading for replaced by
 * it. Pairs overlap ("KOTA SHAH ALAN", "JAYA SE ANGOR"): each word is looked at with the one after
 * it, left to right, and a respelled pair's second word starts no pair of its own.
 */
function respellPairs(text: string, between: RegExp, respell: (first: string, second: string, between: string) => string | undefined): string {
  const words = [...text.matchAll(/(?<![\p{L}\p{N}])\p{L}+(?![\p{L}\p{N}])/gu)];
  let out = '';
  let done = 0;
  for (let i = 0; i + 1 < words.length; i++) {
    const [first, second] = [words[i]!, words[i + 1]!];
    const gap = text.slice(first.index + first[0].length, second.index);
    const respelled = between.test(gap) ? respell(first[0], second[0], gap) : undefined;
    if (respelled === undefined) continue;
    out += text.slice(done, first.index) + respelled;
    done = second.index + second[0].length;
    i++;
  }
  return out + text.slice(done);
}

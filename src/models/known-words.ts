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
  'AVENIDA', 'STRASSE', 'STRAAT', 'CHAUSSEE',
];

/** Below this length a word one letter off may be another real word ("CARE", "CAKE"). */
const MIN_LENGTH = 7;

const KNOWN = new Set([...TRADE_WORDS, ...ADDRESS_WORDS].filter((w) => w.length >= MIN_LENGTH));
const BY_LENGTH = new Map<number, string[]>();
for (const word of KNOWN) BY_LENGTH.set(word.length, [...(BY_LENGTH.get(word.length) ?? []), word]);

/**
 * Letters OCR takes for one another, in capitals or lower case (m/w, o/u/c/d, i/l/t, p/f/b/e):
 * a word one such letter away from a known word is that word; one a letter of another shape away
 * is a word of its own ("CHOPPING" is not "SHOPPING").
 */
const LOOK_ALIKE = ['MWNH', 'OUDQCG', 'ILJT', 'PFRBEK', 'CEG', 'VYU'];

function lookAlike(a: string, b: string): boolean {
  return LOOK_ALIKE.some((group) => group.includes(a) && group.includes(b));
}

/** The known word `word` misreads by one letter, when exactly one is that close. */
function knownWordFor(word: string): string | undefined {
  const upper = word.toUpperCase();
  if (upper.length < MIN_LENGTH || KNOWN.has(upper)) return undefined;
  const close = (BY_LENGTH.get(upper.length) ?? []).filter((known) => {
    const differences = [...known].flatMap((letter, i) => (letter === upper[i] ? [] : [[letter, upper[i]!] as const]));
    return differences.length === 1 && lookAlike(...differences[0]!);
  });
  return close.length === 1 ? close[0] : undefined;
}

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

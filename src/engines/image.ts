import sharp, { type Sharp } from 'sharp';
import { eraseDotLeaders } from './dot-leaders.js';
import { errorMessage, ImageUnreadableError } from './errors.js';
import type { Pixels } from './pdf.js';
import { decodeGrey, toGrey, type GreyPixels } from './pixels.js';

export interface ImageInfo {
  /** Pixels of the first page, after EXIF orientation (as a reader sees the image). */
  width: number;
  height: number;
  /** Pages of a multi-page TIFF; 1 for every other image (animation frames are not pages). */
  pages: number;
  /** sharp's decoder name: png, jpeg, tiff, webp, gif, ... */
  format: string;
}

/** Size, page count and format of an image file, read from its content. */
export async function imageInfo(path: string): Promise<ImageInfo> {
  const metadata = await readImage(() => open(path).metadata());
  return {
    width: metadata.autoOrient.width,
    height: metadata.autoOrient.height,
    pages: metadata.format === 'tiff' ? (metadata.pages ?? 1) : 1,
    format: metadata.format,
  };
}

/**
 * One page (0-based) as an upright PNG on a white background: OCR and barcode readers ignore EXIF
 * orientation and alpha, and transparent pixels would otherwise read as black.
 */
export async function imagePageToPng(path: string, pageIndex = 0): Promise<Buffer> {
  const { pages } = await imageInfo(path);
  if (!Number.isInteger(pageIndex) || pageIndex < 0 || pageIndex >= pages) {
    throw new RangeError(`page index ${pageIndex} is outside 0..${pages - 1}`);
  }
  return readImage(() => open(path, pageIndex).autoOrient().flatten({ background: '#ffffff' }).png().toBuffer());
}

// 'error' rejects corrupt and truncated pixel data but tolerates the harmless warnings that
// scanner and camera files often carry.
function open(path: string, page = 0): Sharp {
  return sharp(path, { page, failOn: 'error' });
}

async function readImage<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw new ImageUnreadableError(`unreadable image: ${errorMessage(error)}`, { cause: error });
  }
}

/**
 * The typical height in pixels of the text lines of a page image (0 when it shows no text): the
 * median height of the runs of inked rows in six vertical bands (narrow bands, so a slight skew
 * does not merge lines). Costs a few tens of milliseconds, against seconds of OCR.
 */
export async function textLineHeight(image: Buffer | Pixels): Promise<number> {
  const { data, width, height } = Buffer.isBuffer(image) ? await decodeGrey(image) : await toGrey(image);
  const levels = inkLevels(data, 3);
  if (!levels) return 0;
  const { threshold } = levels;
  const runs: number[] = [];
  const bands = 6;
  for (let band = 0; band < bands; band++) {
    const x0 = Math.floor((band * width) / bands);
    const x1 = Math.floor(((band + 1) * width) / bands);
    // A row of text has some ink (more than specks of dust) but is not a rule or a black border.
    const minInk = Math.max(2, 0.01 * (x1 - x0));
    let run = 0;
    for (let y = 0; y <= height; y++) {
      let ink = 0;
      if (y < height) for (let x = x0; x < x1; x++) if (data[y * width + x]! < threshold) ink++;
      if (y < height && ink >= minInk && ink < 0.6 * (x1 - x0)) run++;
      else {
        if (run >= MIN_TEXT_ROWS) runs.push(run);
        run = 0;
      }
    }
  }
  if (runs.length < MIN_TEXT_RUNS) return 0;
  runs.sort((a, b) => a - b);
  return runs[Math.floor(runs.length / 2)]!;
}

/**
 * How dark ink is on this page: clearly darker than the paper (the median grey), measured against
 * the darkest marks (the darkest 0.5%), so faint thermal or dot-matrix print is ink too, on white or
 * on grey paper. Every `step`-th pixel is sampled. Undefined for a blank or flat image.
 */
function inkLevels(data: ArrayLike<number>, step = 1): { threshold: number; paper: number } | undefined {
  const histogram = new Array<number>(256).fill(0);
  for (let i = 0; i < data.length; i += step) histogram[data[i]!]!++;
  const samples = Math.ceil(data.length / step);
  const percentile = (share: number) => {
    let seen = 0;
    for (let grey = 0; grey < 256; grey++) if ((seen += histogram[grey]!) >= share * samples) return grey;
    return 255;
  };
  const [dark, paper] = [percentile(0.005), percentile(0.5)];
  if (paper - dark < MIN_INK_CONTRAST) return undefined;
  return { threshold: paper - 0.4 * (paper - dark), paper };
}

/**
 * The page without its dot leaders (dot-leaders.ts), which tesseract reads as words glued to the
 * label before them; `lineHeight` is its text lines' height in pixels. The pixels given are left
 * as they are (other readers of the page share them): the dots are erased on a copy, made only
 * when there are some.
 */
export function withoutDotLeaders(pixels: GreyPixels, lineHeight: number): GreyPixels {
  const ink = inkLevels(pixels.data, 3);
  if (!ink) return pixels;
  const copy = { ...pixels, data: new Uint8Array(pixels.data) };
  return eraseDotLeaders(copy, lineHeight, ink) === 0 ? pixels : copy;
}

/** Marks less than this much darker than the paper are no print (a blank or flat image). */
const MIN_INK_CONTRAST = 40;
/** Fewer inked rows than this are specks, rules or dots, not a line of text. */
const MIN_TEXT_ROWS = 4;
/** Fewer text runs than this do not tell a typical height. */
const MIN_TEXT_RUNS = 5;


/**
 * Pieces of pages (grey or RGBA pixels, each scaled by its `scale`) stacked one under the other on
 * white, `gap` pixels apart: one OCR run reads them all, each as its own line. Returns the image and
 * the band of rows (from the gap above each piece to the gap below) its words fall in.
 */
export async function stackCrops(crops: ReadonlyArray<{ pixels: Pixels; scale: number }>, gap: number): Promise<{ png: Buffer; bands: Array<{ top: number; bottom: number }> }> {
  const scaled = await Promise.all(
    crops.map(({ pixels, scale }) =>
      readImage(() =>
        sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } })
          .greyscale()
          .resize({ width: Math.max(1, Math.round(pixels.width * scale)), kernel: 'lanczos3' })
          .png()
          .toBuffer({ resolveWithObject: true }),
      ),
    ),
  );
  const width = Math.max(...scaled.map((c) => c.info.width)) + 2 * gap;
  let top = gap;
  const placed = scaled.map(({ data, info }) => {
    const at = { input: data, top, left: gap, bottom: top + info.height };
    top += info.height + gap;
    return at;
  });
  const png = await readImage(() =>
    sharp({ create: { width, height: top, channels: 3, background: '#ffffff' } })
      .composite(placed.map(({ input, top: y, left }) => ({ input, top: y, left })))
      .greyscale()
      .png()
      .toBuffer(),
  );
  return { png, bands: placed.map((p) => ({ top: p.top - gap / 2, bottom: p.bottom + gap / 2 })) };
}

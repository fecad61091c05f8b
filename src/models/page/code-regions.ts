import type { PageDrawing } from '../../engines/pdf.js';
import { unionBox, type Box } from './text/geometry.js';

/**
 * Where a barcode could be on a page whose text comes from its text layer: inside a raster image,
 * or where vector marks crowd together the way a code's bars or modules do. Text is glyphs, not
 * marks, so a page of text (and one of ruled tables) gives no region and is never drawn as pixels
 * for a barcode search.
 */
export interface CodeRegion {
  /** Page units (points), the symbol's quiet zone included. */
  box: Box;
  /** Resolution to draw it at: at least three pixels across its finest mark. */
  dpi: number;
}

/** A printed code module (0.5 mm and up) spans three pixels at this resolution. */
export const BARCODE_DPI = 150;
const MAX_BARCODE_DPI = 300;
const PIXELS_PER_MODULE = 3;
/** An image or cluster smaller than this (points, either side) holds no readable code. */
const MIN_CODE_SIDE = 8;
/** Marks closer than this (points) belong to one drawing: a code's widest gap between bars is a few modules. */
const JOIN_GAP = 6;
/** Grid cell of the clustering (points): marks are joined through the cells they touch. */
const CELL = JOIN_GAP;
/** A mark longer than this is a rule or a frame (a table's border), never a bar: it would join whole tables to a code. */
const MAX_BAR_LENGTH = 120;
/** ...and one covering this share of the page is a background. */
const MAX_MARK_PAGE_SHARE = 0.25;
/** A code is many marks (bars, module runs, the islands of a traced symbol)... */
const MIN_MARKS = 8;
/** ...covering a good part of their extent (a ruled table covers a few percent of its own). */
const MIN_INK_SHARE = 0.15;
/** Beyond this many regions on a page (a chart, a map) one search of their union costs less. */
const MAX_REGIONS = 16;

interface Cluster {
  box: Box;
  marks: number;
  ink: number;
  /** The shorter side of its finest mark (points). */
  finest: number;
}

export function codeRegions(drawing: PageDrawing, page: { width: number; height: number }): CodeRegion[] {
  const regions: CodeRegion[] = [];
  for (const image of drawing.images) {
    const box = clip(image, page);
    if (box && box.width >= MIN_CODE_SIDE && box.height >= MIN_CODE_SIDE) regions.push({ box: clip(grow(box, 2), page)!, dpi: BARCODE_DPI });
  }
  for (const cluster of markClusters(drawing.marks, page)) {
    const { box } = cluster;
    if (cluster.marks < MIN_MARKS || box.width < MIN_CODE_SIDE || box.height < MIN_CODE_SIDE) continue;
    if (cluster.ink / (box.width * box.height) < MIN_INK_SHARE) continue;
    const dpi = Math.min(MAX_BARCODE_DPI, Math.max(BARCODE_DPI, (PIXELS_PER_MODULE * 72) / Math.max(cluster.finest, 0.01)));
    // The quiet zone around a symbol is part of what a reader looks for.
    regions.push({ box: clip(grow(box, Math.max(4, 0.1 * Math.min(box.width, box.height))), page)!, dpi: Math.round(dpi) });
  }
  const merged = mergeOverlapping(regions);
  if (merged.length <= MAX_REGIONS) return merged;
  return [{ box: unionBox(merged.map((r) => r.box)), dpi: Math.max(...merged.map((r) => r.dpi)) }];
}

/**
 * Marks joined when they come within JOIN_GAP of each other: each mark is entered in the grid
 * cells its grown box touches, and marks sharing a cell are one cluster (union-find), so the
 * work is linear in the marks and the cells they cover.
 */
function markClusters(marks: readonly Box[], page: { width: number; height: number }): Cluster[] {
  const kept: Box[] = [];
  for (const mark of marks) {
    const box = clip(mark, page);
    if (!box) continue;
    if (Math.max(box.width, box.height) > MAX_BAR_LENGTH && Math.min(box.width, box.height) < MIN_CODE_SIDE) continue;
    if (box.width * box.height > MAX_MARK_PAGE_SHARE * page.width * page.height) continue;
    kept.push(box);
  }
  const parent = kept.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const firstInCell = new Map<number, number>();
  const columns = Math.ceil(page.width / CELL) + 2;
  kept.forEach((box, index) => {
    const reach = grow(box, JOIN_GAP / 2);
    const [x0, x1] = [cellOf(reach.left), cellOf(reach.left + reach.width)];
    const [y0, y1] = [cellOf(reach.top), cellOf(reach.top + reach.height)];
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const cell = (y + 1) * columns + (x + 1);
        const first = firstInCell.get(cell);
        if (first === undefined) firstInCell.set(cell, index);
        else parent[root(index)] = root(first);
      }
    }
  });
  const clusters = new Map<number, Cluster>();
  kept.forEach((box, index) => {
    const key = root(index);
    const cluster = clusters.get(key);
    const finest = Math.min(box.width, box.height) || Math.max(box.width, box.height);
    if (!cluster) clusters.set(key, { box, marks: 1, ink: box.width * box.height, finest });
    else {
      cluster.box = unionBox([cluster.box, box]);
      cluster.marks += 1;
      cluster.ink += box.width * box.height;
      cluster.finest = Math.min(cluster.finest, finest);
    }
  });
  return [...clusters.values()];
}

const cellOf = (value: number) => Math.floor(value / CELL);

function grow(box: Box, margin: number): Box {
  return { left: box.left - margin, top: box.top - margin, width: box.width + 2 * margin, height: box.height + 2 * margin };
}

/** The part of a box on the page; undefined when none is. */
function clip(box: Box, page: { width: number; height: number }): Box | undefined {
  const left = Math.max(0, box.left);
  const top = Math.max(0, box.top);
  const right = Math.min(page.width, box.left + box.width);
  const bottom = Math.min(page.height, box.top + box.height);
  return right > left && bottom > top ? { left, top, width: right - left, height: bottom - top } : undefined;
}

/** Regions that overlap are searched as one (an image under a vector frame, a code split in two clusters). */
function mergeOverlapping(regions: readonly CodeRegion[]): CodeRegion[] {
  const merged: CodeRegion[] = [];
  for (let region of regions) {
    for (let i = merged.length - 1; i >= 0; i--) {
      const other = merged[i]!;
      if (intersects(region.box, other.box)) {
        region = { box: unionBox([region.box, other.box]), dpi: Math.max(region.dpi, other.dpi) };
        merged.splice(i, 1);
        i = merged.length;
      }
    }
    merged.push(region);
  }
  return merged;
}

function intersects(a: Box, b: Box): boolean {
  return a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;
}

/** A word the OCR read on a page image, in its pixels. */
export interface ReadWord {
  text: string;
  box: Box;
  confidence: number;
}

/** A grid block is about this share of the image's shorter side (8 px, 0.7 mm, on an A4 page at 300 dpi). */
const BLOCKS_ACROSS = 310;
/** A block is inked when this share of its pixels is ink (a speck of dust is not). */
const INKED_BLOCK_SHARE = 1 / 16;
const ROW_STEP = 2;
/** Ink is this much darker than the paper, measured against the darkest marks. */
const MIN_CONTRAST = 40;
/** A block is in a dense patch when this share of the blocks around it (DENSE_REACH each way) is inked. */
const DENSE_SHARE = 0.4;
const DENSE_REACH = 2;
/** A patch smaller than this many blocks (about 3 x 3 mm on an A4 scan) holds no readable code. */
const MIN_PATCH_BLOCKS = 16;
/** The quiet zone added around a patch, in blocks (about 3 mm). */
const QUIET_BLOCKS = 4;
/** Words read this surely, with two letters or digits, are text; anything else the OCR saw may be a code. */
const SURE_WORD = 0.6;
/** When the patches cover more than this share of the image (a photo, a page of handwriting), the whole image is searched once. */
const MAX_PATCH_SHARE = 0.5;

/**
 * Where a barcode could be on a page image: patches of dense ink (bars and modules ink most of
 * the small blocks they cover) outside the words the OCR read, each with its quiet zone, in the
 * image's pixels. One pass over the pixels on a coarse grid, then the patches' boxes: a page of
 * text gives none, and the barcode reader, whose search is the costly part, reads only the
 * patches, at the image's full resolution.
 */
export function scannedCodeRegions(pixels: { data: Uint8Array | Uint8ClampedArray; width: number; height: number; channels: 1 | 4 }, words: readonly ReadWord[]): Box[] {
  const { width, height } = pixels;
  const block = Math.max(2, Math.round(Math.min(width, height) / BLOCKS_ACROSS));
  const columns = Math.ceil(width / block);
  const rows = Math.ceil(height / block);
  const threshold = inkThreshold(pixels);
  if (threshold === undefined) return [];
  const inked = inkedBlocks(pixels, block, columns, rows, threshold);
  for (const word of words) {
    if (word.confidence < SURE_WORD || !/[\p{L}\p{N}].*[\p{L}\p{N}]/u.test(word.text)) continue;
    // Blocks whose centre the word covers are its text.
    const x0 = Math.max(0, Math.ceil(word.box.left / block - 0.5));
    const x1 = Math.min(columns - 1, Math.floor((word.box.left + word.box.width) / block - 0.5));
    const y0 = Math.max(0, Math.ceil(word.box.top / block - 0.5));
    const y1 = Math.min(rows - 1, Math.floor((word.box.top + word.box.height) / block - 0.5));
    for (let y = y0; y <= y1; y++) inked.fill(0, y * columns + x0, y * columns + x1 + 1);
  }
  const dense = densePatches(inked, columns, rows);
  const patches = patchBoxes(dense, columns, rows)
    .filter((patch) => patch.blocks >= MIN_PATCH_BLOCKS)
    .map(({ box }) => {
      const reach = DENSE_REACH + QUIET_BLOCKS;
      const left = Math.max(0, (box.left - reach) * block);
      const top = Math.max(0, (box.top - reach) * block);
      return { left, top, width: Math.min(width, (box.left + box.width + reach) * block) - left, height: Math.min(height, (box.top + box.height + reach) * block) - top };
    });
  const merged = mergeOverlapping(patches.map((box) => ({ box, dpi: 0 }))).map((r) => r.box);
  const covered = merged.reduce((sum, box) => sum + box.width * box.height, 0);
  return covered > MAX_PATCH_SHARE * width * height ? [{ left: 0, top: 0, width, height }] : merged;
}

/** Grey level below which a pixel is ink (between the paper and the darkest marks); undefined for a blank image. */
function inkThreshold({ data, channels }: { data: Uint8Array | Uint8ClampedArray; channels: number }): number | undefined {
  const histogram = new Uint32Array(256);
  // Every seventh pixel tells the levels well enough.
  const step = 7 * channels;
  let samples = 0;
  for (let i = 0; i < data.length; i += step, samples++) histogram[data[i]!]!++;
  const percentile = (share: number) => {
    let seen = 0;
    for (let grey = 0; grey < 256; grey++) if ((seen += histogram[grey]!) >= share * samples) return grey;
    return 255;
  };
  const [dark, paper] = [percentile(0.005), percentile(0.5)];
  return paper - dark < MIN_CONTRAST ? undefined : paper - 0.5 * (paper - dark);
}

function inkedBlocks({ data, width, height, channels }: { data: Uint8Array | Uint8ClampedArray; width: number; height: number; channels: number }, block: number, columns: number, rows: number, threshold: number): Uint8Array {
  const counts = new Uint16Array(columns * rows);
  // Every other row: a block is several rows tall, and the finest printed mark spans more than two.
  for (let y = 0; y < height; y += ROW_STEP) {
    const rowStart = y * width;
    const gridRow = Math.floor(y / block) * columns;
    for (let column = 0, x = 0; column < columns; column++) {
      const end = Math.min(width, x + block);
      let count = 0;
      for (; x < end; x++) if (data[(rowStart + x) * channels]! < threshold) count++;
      counts[gridRow + column]! += count;
    }
  }
  const minimum = Math.max(2, (INKED_BLOCK_SHARE * block * block) / ROW_STEP);
  return Uint8Array.from(counts, (count) => (count >= minimum ? 1 : 0));
}

/** Blocks around which enough blocks are inked, from a summed-area table of the grid. */
function densePatches(inked: Uint8Array, columns: number, rows: number): Uint8Array {
  const sums = new Uint32Array((columns + 1) * (rows + 1));
  for (let y = 0; y < rows; y++) {
    let row = 0;
    for (let x = 0; x < columns; x++) {
      row += inked[y * columns + x]!;
      sums[(y + 1) * (columns + 1) + x + 1] = sums[y * (columns + 1) + x + 1]! + row;
    }
  }
  const dense = new Uint8Array(columns * rows);
  for (let y = 0; y < rows; y++) {
    const [y0, y1] = [Math.max(0, y - DENSE_REACH), Math.min(rows, y + DENSE_REACH + 1)];
    for (let x = 0; x < columns; x++) {
      if (!inked[y * columns + x]) continue;
      const [x0, x1] = [Math.max(0, x - DENSE_REACH), Math.min(columns, x + DENSE_REACH + 1)];
      const count = sums[y1 * (columns + 1) + x1]! - sums[y0 * (columns + 1) + x1]! - sums[y1 * (columns + 1) + x0]! + sums[y0 * (columns + 1) + x0]!;
      if (count >= DENSE_SHARE * (x1 - x0) * (y1 - y0)) dense[y * columns + x] = 1;
    }
  }
  return dense;
}

/** Boxes (in blocks) of the 8-connected patches of dense blocks, with how many blocks each has. */
function patchBoxes(dense: Uint8Array, columns: number, rows: number): Array<{ box: Box; blocks: number }> {
  const seen = new Uint8Array(dense.length);
  const patches: Array<{ box: Box; blocks: number }> = [];
  const stack: number[] = [];
  for (let start = 0; start < dense.length; start++) {
    if (!dense[start] || seen[start]) continue;
    let [left, top, right, bottom, blocks] = [columns, rows, 0, 0, 0];
    seen[start] = 1;
    stack.push(start);
    while (stack.length) {
      const at = stack.pop()!;
      const [x, y] = [at % columns, Math.floor(at / columns)];
      [left, top, right, bottom] = [Math.min(left, x), Math.min(top, y), Math.max(right, x), Math.max(bottom, y)];
      blocks++;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const [nx, ny] = [x + dx, y + dy];
          if (nx < 0 || ny < 0 || nx >= columns || ny >= rows) continue;
          const next = ny * columns + nx;
          if (dense[next] && !seen[next]) {
            seen[next] = 1;
            stack.push(next);
          }
        }
      }
    }
    patches.push({ box: { left, top, width: right - left + 1, height: bottom - top + 1 }, blocks });
  }
  return patches;
}

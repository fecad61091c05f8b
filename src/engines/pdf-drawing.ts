/**
 * What a page draws besides its text (raster images, vector marks), made out while its operator
 * list is walked (pdf-page-walk.ts): no rendering. PDF draws every image into the unit square of
 * the current transformation, so each image box is that square under the transformation in force
 * at the paint operator (tracked through save/restore, cm and form XObjects), then the
 * viewport's; a path's pieces are boxed in user space and mapped the same way.
 */
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Box } from './geometry.js';
import type { OperatorVisitor } from './pdf-page-walk.js';
import { ViewportBox, type Matrix, type ViewportTransform } from './viewport-box.js';

/** What a page draws besides its text, in points with a top-left origin like word boxes. */
export interface PageDrawing {
  /** Raster images (scans pasted into a document, photos, signatures). */
  images: Box[];
  /**
   * Pieces of vector drawing: each filled or stroked subpath, and each image mask (a one-colour
   * bitmap). Barcodes drawn as vectors are many small marks side by side.
   */
  marks: Box[];
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/** `outer` after `inner`: what a point drawn under `inner` ends up at once `outer` applies too. */
function compose(outer: Matrix, inner: Matrix): Matrix {
  const [a, b, c, d, e, f] = outer;
  const [a2, b2, c2, d2, e2, f2] = inner;
  return [a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e, b * e2 + d * f2 + f];
}

function asMatrix(values: ArrayLike<number> | null | undefined): Matrix | null {
  if (!values || values.length < 6) return null;
  return [values[0]!, values[1]!, values[2]!, values[3]!, values[4]!, values[5]!];
}

/** The path operators that paint (fill, stroke or both); endPath only clips. */
const FILLING = new Set<number>([OPS.fill, OPS.eoFill, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
const STROKING = new Set<number>([OPS.stroke, OPS.closeStroke, OPS.fillStroke, OPS.eoFillStroke, OPS.closeFillStroke, OPS.closeEOFillStroke]);
/** pdf.js's drawing commands inside a constructPath buffer, with how many numbers follow each. */
const DRAW_OP_ARGS: Readonly<Record<number, number>> = { 0: 2, 1: 2, 2: 6, 3: 4, 4: 0 };
const DRAW_CLOSE = 4;
const DRAW_MOVE = 0;

/** Graphics state the walk tracks: the transformation and the line width (strokes are as wide as it). */
interface DrawingState {
  ctm: Matrix;
  lineWidth: number;
}

/** Collects a page's PageDrawing from the operators of its list, in order. */
export class DrawingTally implements OperatorVisitor {
  private readonly images: Box[] = [];
  private readonly marks: Box[] = [];
  private state: DrawingState = { ctm: IDENTITY, lineWidth: 1 };
  private readonly saved: DrawingState[] = [];

  constructor(private readonly viewport: ViewportTransform) {}

  visit(op: number, args: unknown[] | null): void {
    switch (op) {
      case OPS.save:
        this.saved.push(this.state);
        break;
      case OPS.restore:
      case OPS.paintFormXObjectEnd:
        this.state = this.saved.pop() ?? this.state;
        break;
      case OPS.transform:
        this.state = { ...this.state, ctm: compose(this.state.ctm, asMatrix(args as number[]) ?? IDENTITY) };
        break;
      case OPS.paintFormXObjectBegin:
        this.saved.push(this.state);
        this.state = { ...this.state, ctm: compose(this.state.ctm, asMatrix(args?.[0] as number[] | null) ?? IDENTITY) };
        break;
      case OPS.setLineWidth:
        this.state = { ...this.state, lineWidth: Number(args?.[0]) || 0 };
        break;
      case OPS.setGState:
        for (const [key, value] of (args?.[0] ?? []) as Array<[string, unknown]>) if (key === 'LW') this.state = { ...this.state, lineWidth: Number(value) || 0 };
        break;
      case OPS.constructPath: {
        const [paint, data, minMax] = (args ?? []) as [number, unknown[] | undefined, ArrayLike<number> | null | undefined];
        if (!FILLING.has(paint) && !STROKING.has(paint)) break;
        // A stroke covers half its width on each side of the path.
        const grow = STROKING.has(paint) ? this.state.lineWidth / 2 : 0;
        for (const [x0, y0, x1, y1] of pathPieces(data?.[0], minMax)) this.marks.push(this.userBox(this.state.ctm, x0 - grow, y0 - grow, x1 + grow, y1 + grow));
        break;
      }
      case OPS.paintImageXObject:
      case OPS.paintInlineImageXObject:
        this.images.push(this.unitSquare(this.state.ctm));
        break;
      case OPS.paintImageMaskXObject:
        // A mask is a picture as much as a mark (a scanned signature, a one-colour logo, a code).
        this.images.push(this.unitSquare(this.state.ctm));
        this.marks.push(this.unitSquare(this.state.ctm));
        break;
      case OPS.paintSolidColorImageMask:
        this.marks.push(this.unitSquare(this.state.ctm));
        break;
      case OPS.paintImageXObjectRepeat: {
        // One image at many positions: [objId, scaleX, scaleY, x0, y0, x1, y1, ...].
        const [, scaleX, scaleY, positions] = args as [unknown, number, number, ArrayLike<number>];
        for (let p = 0; p + 1 < positions.length; p += 2) {
          this.images.push(this.unitSquare(compose(this.state.ctm, [scaleX, 0, 0, scaleY, positions[p]!, positions[p + 1]!])));
        }
        break;
      }
      case OPS.paintImageMaskXObjectRepeat: {
        // One mask at many positions: [image, scaleX, skewX, skewY, scaleY, x0, y0, x1, y1, ...].
        const [, scaleX, skewX, skewY, scaleY, positions] = args as [unknown, number, number, number, number, ArrayLike<number>];
        for (let p = 0; p + 1 < positions.length; p += 2) {
          this.marks.push(this.unitSquare(compose(this.state.ctm, [scaleX, skewX ?? 0, skewY ?? 0, scaleY, positions[p]!, positions[p + 1]!])));
        }
        break;
      }
      case OPS.paintInlineImageXObjectGroup: {
        // Many small inline images: [imageData, [{ transform }, ...]].
        const placements = (args?.[1] ?? []) as Array<{ transform: number[] }>;
        for (const placement of placements) this.images.push(this.unitSquare(compose(this.state.ctm, asMatrix(placement.transform) ?? IDENTITY)));
        break;
      }
      case OPS.paintImageMaskXObjectGroup: {
        // Many small masks: [[{ transform }, ...]].
        const masks = (args?.[0] ?? []) as Array<{ transform: number[] }>;
        for (const mask of masks) this.marks.push(this.unitSquare(compose(this.state.ctm, asMatrix(mask.transform) ?? IDENTITY)));
        break;
      }
    }
  }

  result(): PageDrawing {
    return { images: this.images, marks: this.marks };
  }

  private unitSquare(m: Matrix): Box {
    return this.userBox(m, 0, 0, 1, 1);
  }

  /** The page box of the user-space rectangle x0..x1 × y0..y1 drawn under `m`: its four corners mapped, then boxed. */
  private userBox(m: Matrix, x0: number, y0: number, x1: number, y1: number): Box {
    const corners = new ViewportBox(this.viewport);
    corners.add(m, x0, y0);
    corners.add(m, x1, y0);
    corners.add(m, x0, y1);
    corners.add(m, x1, y1);
    return corners.box();
  }
}

/**
 * The user-space boxes [x0, y0, x1, y1] of a path's subpaths (a code drawn as one path of many
 * module squares gives one box per module). From the path's overall extent when pdf.js gives
 * no buffer of drawing commands.
 */
function pathPieces(buffer: unknown, minMax: ArrayLike<number> | null | undefined): Array<[number, number, number, number]> {
  if (!(buffer instanceof Float32Array)) return minMax && minMax.length >= 4 && Number.isFinite(minMax[0]) ? [[minMax[0]!, minMax[1]!, minMax[2]!, minMax[3]!]] : [];
  const pieces: Array<[number, number, number, number]> = [];
  let piece: [number, number, number, number] | undefined;
  // After a closePath the next piece starts where the closed one did.
  let start: [number, number] = [0, 0];
  const extend = (x: number, y: number) => {
    if (!piece) pieces.push((piece = [x, y, x, y]));
    else {
      piece[0] = Math.min(piece[0], x);
      piece[1] = Math.min(piece[1], y);
      piece[2] = Math.max(piece[2], x);
      piece[3] = Math.max(piece[3], y);
    }
  };
  for (let k = 0; k < buffer.length; ) {
    const op = buffer[k++]!;
    const count = DRAW_OP_ARGS[op];
    if (count === undefined) break; // not a buffer this walk understands; what was read stays
    if (op === DRAW_MOVE) {
      piece = undefined;
      start = [buffer[k]!, buffer[k + 1]!];
    } else if (!piece && op !== DRAW_CLOSE) extend(...start);
    // Curves are boxed by their control points, which hold the curve.
    for (let n = 0; n < count; n += 2) extend(buffer[k + n]!, buffer[k + n + 1]!);
    if (op === DRAW_CLOSE) piece = undefined;
    k += count;
  }
  return pieces;
}

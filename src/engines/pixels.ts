import sharp from 'sharp';
import { errorMessage, ImageUnreadableError } from './errors.js';
import type { Box } from './geometry.js';
import type { Pixels } from './pdf.js';

/**
 * Decoded images as the engines pass them around (Pixels: grey or RGBA rows), and the few
 * conversions between them and encoded images.
 */

/**
 * A PNG of grey pixels for readers that take an encoded image (tesseract, sharp): the fastest
 * zlib level, since the PNG only crosses to a reader on this machine (a 300 dpi A4 page in about
 * 20 ms, against 400 ms for pdf.js's default PNG).
 */
export function greyPng(pixels: Pixels): Promise<Buffer> {
  return sharpOf(pixels).toColourspace('b-w').png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
}

/** Shades of grey, one byte per pixel. */
export type GreyPixels = Pixels & { channels: 1 };

/** An encoded image's first page as grey pixels. */
export async function decodeGrey(image: Buffer): Promise<GreyPixels> {
  try {
    const { data, info } = await sharp(image, { failOn: 'error' }).flatten({ background: '#ffffff' }).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: 1 };
  } catch (error) {
    throw new ImageUnreadableError(`unreadable image: ${errorMessage(error)}`, { cause: error });
  }
}

/** The pixels in grey (RGBA as rendered by pdf.js is opaque); grey pixels are returned as they are. */
export async function toGrey(pixels: Pixels): Promise<GreyPixels> {
  if (pixels.channels === 1) return pixels as GreyPixels;
  const { data, info } = await sharpOf(pixels).removeAlpha().toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 1 };
}

/** Grey pixels scaled by `factor`, for OCR: Lanczos keeps the strokes of enlarged small print sharp. */
export async function resizeGrey(pixels: GreyPixels, factor: number): Promise<GreyPixels> {
  const width = Math.max(1, Math.round(pixels.width * factor));
  const { data, info } = await sharpOf(pixels).resize({ width, kernel: 'lanczos3' }).toColourspace('b-w').raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 1 };
}

/** The pixels inside `box` (pixels, rounded outwards, clipped to the image). */
export function cropPixels(pixels: Pixels, box: Box): Pixels {
  const left = Math.max(0, Math.floor(box.left));
  const top = Math.max(0, Math.floor(box.top));
  const right = Math.min(pixels.width, Math.ceil(box.left + box.width));
  const bottom = Math.min(pixels.height, Math.ceil(box.top + box.height));
  const width = Math.max(0, right - left);
  const height = Math.max(0, bottom - top);
  const rowBytes = width * pixels.channels;
  const data = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    const from = ((top + y) * pixels.width + left) * pixels.channels;
    data.set(pixels.data.subarray(from, from + rowBytes), y * rowBytes);
  }
  return { data, width, height, channels: pixels.channels };
}

/** RGBA pixels (what ImageData holds), from grey ones by repeating each level. */
export function toRgba(pixels: Pixels): Uint8ClampedArray {
  if (pixels.channels === 4) return new Uint8ClampedArray(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
  const count = pixels.width * pixels.height;
  const rgba = new Uint8ClampedArray(count * 4);
  for (let i = 0, j = 0; i < count; i++, j += 4) {
    const level = pixels.data[i]!;
    rgba[j] = level;
    rgba[j + 1] = level;
    rgba[j + 2] = level;
    rgba[j + 3] = 255;
  }
  return rgba;
}

function sharpOf(pixels: Pixels) {
  return sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
}

/** An encoded image turned clockwise by a quarter, half or three quarters (a page photographed sideways), as a PNG. */
export async function turnPng(image: Buffer, degrees: 90 | 180 | 270): Promise<Buffer> {
  try {
    return await sharp(image, { failOn: 'error' }).rotate(degrees).png({ compressionLevel: 1, adaptiveFiltering: false }).toBuffer();
  } catch (error) {
    throw new ImageUnreadableError(`unreadable image: ${errorMessage(error)}`, { cause: error });
  }
}

import sharp, { type Sharp } from 'sharp';
import { errorMessage, ImageUnreadableError } from './errors.js';

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

import { imagePageToPng } from '../../engines/image.js';
import { EngineMissingError } from '../../engines/errors.js';
import { renderPdfPagePng } from '../../engines/poppler.js';
import { NotFoundError, ServiceUnavailableError } from '../../http/problem.js';
import type { BlobStore } from '../../storage/blob-store.js';

/** PDF pages are drawn at twice their size in points: sharp enough to read small print on a screen. */
const PDF_DPI = 144;

export interface PageSource {
  sourceBlobKey: string | null;
  sourceMimeType: string | null;
}

function sourceKind(task: PageSource): 'pdf' | 'image' | undefined {
  if (!task.sourceBlobKey) return undefined;
  if (task.sourceMimeType === 'application/pdf') return 'pdf';
  return task.sourceMimeType?.startsWith('image/') ? 'image' : undefined;
}

/** Rendered image pixels per geometry unit (points for PDFs, pixels for images), or undefined when the task has no pages to show. */
export function pixelsPerUnit(task: PageSource): number | undefined {
  const kind = sourceKind(task);
  return kind === undefined ? undefined : kind === 'pdf' ? PDF_DPI / 72 : 1;
}

/**
 * One page (1-based) of the task's source file as a PNG. PDF pages are drawn by poppler's
 * pdftoppm in a child process and images decoded by sharp on libuv's pool: the api's event loop
 * only waits (it never loads pdf.js, whose rendering would hold it for the whole page).
 */
export async function renderTaskPage(blobs: BlobStore, task: PageSource, pageNumber: number): Promise<Buffer> {
  const kind = sourceKind(task);
  if (!kind) throw new NotFoundError('The task has no page images');
  // The blob's own file in the local store; a temporary copy of an S3 object.
  const file = await blobs.localFile(task.sourceBlobKey!);
  try {
    return kind === 'pdf' ? await renderPdfPagePng(file.path, pageNumber, PDF_DPI) : await imagePageToPng(file.path, pageNumber - 1);
  } catch (err) {
    // Both engines throw RangeError for a page the file does not have.
    if (err instanceof RangeError) throw new NotFoundError(`The task has no page ${pageNumber}`);
    if (err instanceof EngineMissingError) throw new ServiceUnavailableError('Page images of PDFs need poppler-utils (pdftoppm), which is not installed.');
    throw err;
  } finally {
    await file.release();
  }
}

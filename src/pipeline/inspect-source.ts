import { sniffFile, type FileKind } from '../engines/file-type.js';
import { imageInfo } from '../engines/image.js';
import { probeMedia } from '../engines/media.js';
import { pdfInfo } from '../engines/pdf.js';
import { XML_PAGE_COUNT } from '../models/einvoice/xml-source.js';
import { UnsupportedFileError, type SourceInspection } from './source-inspection.js';

/** Spec limits: images strictly between 50x50 and 10000x10000 px; PDF pages under 17x17 inches. */
const MIN_IMAGE_PX = 50;
const MAX_IMAGE_PX = 10_000;
const MAX_PDF_POINTS = 17 * 72;

/**
 * What the pipeline needs to know of a source file: its kind (from content), its pages or minutes,
 * and whether its dimensions break the spec's limits. Unreadable files throw the engines'
 * InputUnreadableError (-> PreProcessingGetPagesFailed). CPU-bound for PDFs (every page is
 * parsed for its size): it runs in an engine thread (engine-pool.ts).
 */
export async function inspectSource(path: string): Promise<SourceInspection> {
  const sniffed = await sniffFile(path);
  const kind: FileKind = sniffed.kind;
  if (kind === 'unsupported' || !sniffed.mime) {
    throw new UnsupportedFileError(`Unsupported file type${sniffed.mime ? ` ${sniffed.mime}` : ''}: send a PDF, an image, audio or video`);
  }
  if (kind === 'pdf') {
    const info = await pdfInfo(path);
    const tooLarge = info.pages.findIndex((p) => p.width >= MAX_PDF_POINTS || p.height >= MAX_PDF_POINTS);
    return {
      kind,
      mimeType: sniffed.mime,
      pageCount: info.pageCount,
      ...(tooLarge >= 0
        ? { dimensionProblem: `page ${tooLarge + 1} is ${inches(info.pages[tooLarge]!.width)}x${inches(info.pages[tooLarge]!.height)} inches; pages must be smaller than 17x17 inches` }
        : {}),
    };
  }
  // An invoice's data (CII, UBL): whether the workspace takes it, and whether it is an invoice at all, is decided later.
  if (kind === 'xml') return { kind, mimeType: sniffed.mime, pageCount: XML_PAGE_COUNT };
  if (kind === 'image' || kind === 'tiff') {
    const info = await imageInfo(path);
    const fits = (n: number) => n > MIN_IMAGE_PX && n < MAX_IMAGE_PX;
    return {
      kind,
      mimeType: sniffed.mime,
      pageCount: info.pages,
      ...(fits(info.width) && fits(info.height)
        ? {}
        : { dimensionProblem: `image is ${info.width}x${info.height} px; it must be larger than 50x50 and smaller than 10000x10000` }),
    };
  }
  const media = await probeMedia(path);
  if (!media.hasAudio) throw new UnsupportedFileError('The media file has no audio track to transcribe');
  return { kind, mimeType: sniffed.mime, durationSeconds: media.durationSeconds, minutes: Math.max(1, Math.ceil(media.durationSeconds / 60)) };
}

function inches(points: number): string {
  return (points / 72).toFixed(1);
}

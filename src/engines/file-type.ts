import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

/** How the pipeline treats a file: which engine counts its pages or minutes. */
export type FileKind = 'pdf' | 'image' | 'tiff' | 'audio' | 'video' | 'unsupported';

export interface SniffedFile {
  /** Detected from the content; null when the content matches no known signature. */
  mime: string | null;
  ext: string | null;
  kind: FileKind;
}

// Formats sharp decodes that make sense as document pages. TIFF is apart because it may hold pages.
const SINGLE_PAGE_IMAGES = new Set(['image/png', 'image/apng', 'image/jpeg', 'image/bmp', 'image/webp', 'image/gif']);

// Containers file-type cannot attribute to audio or video; ffprobe tells what they hold.
const MEDIA_CONTAINERS = new Set(['application/ogg', 'application/vnd.ms-asf']);

const PDF: SniffedFile = { mime: 'application/pdf', ext: 'pdf', kind: 'pdf' };

/**
 * PDF readers take a file whose `%PDF-` header starts anywhere in its first 1,024 bytes (a mail
 * gateway's or a server's preamble left before it), and so do the PDF engines here: pdf.js and
 * poppler count the file's offsets from the header, pdf-lib reads the objects wherever they are.
 * The file is kept as it came; what reads it skips the preamble.
 */
const PDF_HEADER = Buffer.from('%PDF-', 'latin1');
const PDF_HEADER_WINDOW = 1024;

/**
 * Sniffs a file's type from its content (never its name or a client's claim). A content no
 * signature claims for a kind the pipeline takes is a PDF when its header comes late (above).
 */
export async function sniffFile(path: string): Promise<SniffedFile> {
  const detected = await fileTypeFromFile(path);
  const sniffed: SniffedFile = detected ? { mime: detected.mime, ext: detected.ext, kind: kindOf(detected.mime) } : { mime: null, ext: null, kind: 'unsupported' };
  if (sniffed.kind === 'unsupported' && (await hasLatePdfHeader(path))) return PDF;
  return sniffed;
}

async function hasLatePdfHeader(path: string): Promise<boolean> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(PDF_HEADER_WINDOW), 0, PDF_HEADER_WINDOW, 0);
    return buffer.subarray(0, bytesRead).includes(PDF_HEADER);
  } finally {
    await file.close();
  }
}

function kindOf(mime: string): FileKind {
  if (mime === 'application/pdf') return 'pdf';
  if (mime === 'image/tiff') return 'tiff';
  if (SINGLE_PAGE_IMAGES.has(mime)) return 'image';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/') || MEDIA_CONTAINERS.has(mime)) return 'video';
  return 'unsupported';
}

import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';

/** How the pipeline treats a file: which engine counts its pages or minutes. */
export type FileKind = 'pdf' | 'image' | 'tiff' | 'audio' | 'video' | 'xml' | 'unsupported';

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
/** The head read when no signature settles the type: the PDF header window, and where XML shows its root. */
const HEAD_BYTES = 1024;

/**
 * Sniffs a file's type from its content (never its name or a client's claim). A content no
 * signature claims for a kind the pipeline takes, or one that reads as XML, is a PDF when its
 * header comes late (above); else XML shows by its root element even without a declaration.
 */
export async function sniffFile(path: string): Promise<SniffedFile> {
  const detected = await fileTypeFromFile(path);
  const sniffed: SniffedFile = detected ? { mime: detected.mime, ext: detected.ext, kind: kindOf(detected.mime) } : { mime: null, ext: null, kind: 'unsupported' };
  if (sniffed.kind !== 'unsupported' && sniffed.kind !== 'xml') return sniffed;
  const head = await readHead(path, HEAD_BYTES);
  // A preamble may itself look like XML (a gateway's envelope): a PDF header behind it wins.
  if (head.includes(PDF_HEADER)) return PDF;
  if (sniffed.kind === 'unsupported' && startsLikeXml(head)) return { mime: XML_MIME, ext: 'xml', kind: 'xml' };
  return sniffed;
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { buffer, bytesRead } = await file.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
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
  if (mime === XML_MIME) return 'xml';
  return 'unsupported';
}

const XML_MIME = 'application/xml';

/**
 * XML without an XML declaration (file-type knows only "<?xml "): a root element's start tag
 * first, after a byte order mark, white space and comments. An e-invoice (UBL, CII) may be sent
 * so; whether it is an invoice is the model's to find out.
 */
function startsLikeXml(head: Buffer): boolean {
  const text = head.toString('utf8').replace(/^\uFEFF/, '');
  return /^\s*(?:<!--[\s\S]*?-->\s*)*<[A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?[\s>/]/.test(text);
}

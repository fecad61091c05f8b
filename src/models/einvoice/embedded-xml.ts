import { withPdf } from '../../engines/pdf.js';

/** An XML file a PDF carries (PDF/A-3 associated files, the EmbeddedFiles name tree). */
export interface EmbeddedXml {
  fileName: string;
  content: Uint8Array;
}

/**
 * The names the e-invoice standards give their XML (Factur-X, ZUGFeRD 1 and 2, XRechnung): tried
 * first; any other embedded .xml is tried after them, as some tools name it their own way.
 */
const STANDARD_NAMES = ['factur-x.xml', 'zugferd-invoice.xml', 'xrechnung.xml', 'order-x.xml'];

/** Embedded files' contents are kept only up to this many: an invoice XML is far smaller. */
const MAX_EMBEDDED_FILES = 20;

/** The XML files embedded in a PDF, the standards' names first; none when it has none or cannot be read. */
export async function embeddedXmlFiles(pdfPath: string): Promise<EmbeddedXml[]> {
  const attachments = await withPdf(pdfPath, (doc) => doc.getAttachments() as Promise<Record<string, { filename?: string; content?: Uint8Array }> | null>);
  const files = Object.entries(attachments ?? {})
    .map(([key, file]) => ({ fileName: file.filename ?? key, content: file.content }))
    .filter((file): file is EmbeddedXml => file.content instanceof Uint8Array && /\.xml$/i.test(file.fileName.trim()))
    .slice(0, MAX_EMBEDDED_FILES);
  const rank = (file: EmbeddedXml) => {
    const at = STANDARD_NAMES.indexOf(file.fileName.trim().toLowerCase());
    return at < 0 ? STANDARD_NAMES.length : at;
  };
  return files.sort((a, b) => rank(a) - rank(b));
}

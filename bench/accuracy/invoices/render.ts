/**
 * Makes the files of the labelled invoices: Chromium prints each invoice's HTML to a PDF with a
 * text layer (as invoicing tools do); the scan deliveries render that PDF to pixels and degrade
 * them the way scanners and phones do (lower resolution, blur, noise, a slight turn, JPEG).
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { chromium, type Browser } from 'playwright-core';
import sharp from 'sharp';
import type { FileKind } from '../../../src/engines/file-type.js';
import { renderPdfPage } from '../../../src/engines/pdf.js';
import { addImagePage } from '../../../test/support/image-pdf.js';
import { invoiceHtml } from './html.js';
import { Random } from './random.js';
import type { InvoiceSpec } from './spec.js';

/** Debian's chromium, driven by playwright-core (no browser download), as the review page test uses it. */
export const CHROMIUM = '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM);
}

export interface InvoiceFile {
  path: string;
  kind: FileKind;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
}

/** The invoice as its delivery hands it over, written into `dir`. */
export async function renderInvoice(browser: Browser, spec: InvoiceSpec, dir: string): Promise<InvoiceFile> {
  const pdf = await printPdf(browser, spec);
  const base = path.join(dir, spec.id);
  if (spec.delivery === 'text' || spec.delivery === 'letterhead') {
    await writeFile(`${base}.pdf`, pdf);
    return { path: `${base}.pdf`, kind: 'pdf' };
  }
  const printed = `${base}.print.pdf`;
  await writeFile(printed, pdf);
  const random = new Random(spec.seed ^ 0x5eed);
  const dpi = { scan: 300, stamp: 300, photo: 200, lowres: random.pick([110, 130, 150]) }[spec.delivery];
  const image = await degrade(await renderPdfPage(printed, 1, dpi), spec.delivery, random);
  if (spec.delivery === 'photo' || spec.delivery === 'lowres') {
    await writeFile(`${base}.jpg`, image);
    return { path: `${base}.jpg`, kind: 'image' };
  }
  await writeFile(`${base}.pdf`, await stampedImagePdf(image, dpi, spec.delivery === 'stamp' ? random.pick(['PAID', 'COPY', 'RECEIVED', 'BOOKED']) : undefined));
  return { path: `${base}.pdf`, kind: 'pdf' };
}

async function printPdf(browser: Browser, spec: InvoiceSpec): Promise<Buffer> {
  const context = await browser.newContext({ deviceScaleFactor: 3 });
  try {
    const page = await context.newPage();
    await page.setContent(invoiceHtml(spec));
    if (spec.delivery === 'letterhead' && (await page.locator('.vendor').count()) > 0) {
      // The vendor's header becomes a picture of itself, as in a letterhead template.
      const vendor = page.locator('.vendor').first();
      const box = await vendor.boundingBox();
      const png = await vendor.screenshot({ type: 'png' });
      await vendor.evaluate(
        (element, { src, width, height }) => {
          element.innerHTML = `<img src="${src}" style="width:${width}px;height:${height}px;display:block">`;
        },
        { src: `data:image/png;base64,${png.toString('base64')}`, width: box!.width, height: box!.height },
      );
    }
    return await page.pdf({ format: spec.pageSize, printBackground: true, margin: { top: '0', bottom: '0', left: '0', right: '0' } });
  } finally {
    await context.close();
  }
}

/** Scanner and phone faults, drawn from the seed: a turn, blur, noise, faded contrast, JPEG loss. */
async function degrade(png: Buffer, delivery: InvoiceSpec['delivery'], random: Random): Promise<Buffer> {
  const drawn = random.chance(0.7) ? (random.next() - 0.5) * (delivery === 'photo' ? 3 : 2) : 0;
  // BENCH_TURN=degrees: every scan turned that far (the way the seed turns it), to measure turned pages.
  const angle = process.env.BENCH_TURN ? (drawn < 0 ? -1 : 1) * Number(process.env.BENCH_TURN) : drawn;
  const blur = delivery === 'lowres' ? 0.6 + random.next() * 0.5 : 0.3 + random.next() * 0.6;
  const noise = 15 + random.next() * (delivery === 'photo' ? 50 : 35);
  let image = sharp(png).flatten({ background: '#ffffff' }).greyscale();
  if (angle !== 0) image = image.rotate(angle, { background: '#ffffff' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const contrast = delivery === 'photo' ? 0.75 + random.next() * 0.15 : 0.9;
  const floor = delivery === 'photo' ? 25 + random.next() * 30 : 10;
  for (let i = 0; i < data.length; i++) {
    const faded = floor + data[i]! * contrast * ((255 - floor) / 255);
    data[i] = Math.max(0, Math.min(255, faded + (random.next() - 0.5) * noise));
  }
  const out = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } }).blur(blur);
  return delivery === 'scan' || delivery === 'stamp' ? out.png().toBuffer() : out.jpeg({ quality: random.int(delivery === 'lowres' ? 45 : 60, 85) }).toBuffer();
}

/** A scanner's PDF: the page image only, or with one stamped word as its whole text layer. */
async function stampedImagePdf(png: Buffer, dpi: number, stamp: string | undefined): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = await addImagePage(doc, png, dpi);
  const { width: w, height: h } = page.getSize();
  if (stamp) page.drawText(stamp, { x: w - 150, y: h - 60, size: 18, font: await doc.embedFont(StandardFonts.HelveticaBold), color: rgb(0.8, 0.1, 0.1) });
  return doc.save();
}

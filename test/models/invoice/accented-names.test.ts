import { describe, expect, it } from 'vitest';
import { accentedWords, readingLanguages, withAccents } from '../../../src/models/invoice/accented-names.js';
import { greyPng } from '../../../src/engines/pixels.js';
import { renderPdfPageGrey } from '../../../src/engines/poppler.js';
import { readPages } from '../../../src/models/page/page-reader.js';
import { buildPageText } from '../../../src/models/page/text/text-lines.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { fields, firstPageEntities, modelInput, renderPage, scannedLook, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

describe('readingLanguages', () => {
  it('is the page\'s language when its words say which, all accented languages otherwise', () => {
    expect(readingLanguages('Fatura n.º 222177 Data limite de pagamento Descrição Quantidade Preço unitário Obrigado')).toEqual(['pt']);
    // An English OCR drops the accents: the words still tell.
    expect(readingLanguages('Factura Fecha factura Fecha de vencimiento Facturar a Concepto Gracias por su confianza Pagina 1 de 1')).toEqual(['es']);
    expect(readingLanguages('Invoice number Due date Description Quantity Thank you for your business')).toEqual(['fr', 'de', 'es', 'pt']);
    expect(readingLanguages('Total 12.00')).toEqual(['fr', 'de', 'es', 'pt']);
  });
});

describe('accents of names read by OCR', () => {
  const scratch = useScratchDir();

  it('reads the vendor of a Portuguese letterhead with Portuguese letters, not German ones', async () => {
    // Read with all accented models at once, "Instalações" comes back "Instalacöes": German's "ö"
    // where Portuguese writes "õ". The page's own words tell that it is Portuguese.
    const letterhead = await renderPage(
      [
        { text: 'Instalações Santos Lda', x: 0, y: 55, size: 64, font: 'mono' },
        { text: 'Avenida da Liberdade 121', x: 0, y: 110, size: 36, font: 'mono' },
        { text: '1666-397 Braga', x: 0, y: 150, size: 36, font: 'mono' },
        { text: 'NIF: 523192975', x: 0, y: 190, size: 36, font: 'mono' },
      ],
      { width: 3504, height: 240 },
    );
    const body: Placed[] = [
      { text: 'Cliente', x: 400, y: 150 },
      { text: 'Cobalt Engineering', x: 400, y: 164 },
      { text: 'Fatura n.º 222177 de 2023-06-27', x: 40, y: 200 },
      { text: 'Data limite de pagamento 2023-08-26', x: 40, y: 216 },
      { text: 'Designação', x: 40, y: 250 },
      { text: 'Quantidade', x: 250, y: 250 },
      { text: 'Preço unitário', x: 350, y: 250 },
      { text: 'Valor', x: 480, y: 250 },
      { text: 'Manutenção do website', x: 40, y: 266 },
      { text: '1', x: 250, y: 266 },
      { text: '100,00', x: 350, y: 266 },
      { text: '100,00', x: 480, y: 266 },
      { text: 'Total s/ IVA 100,00', x: 350, y: 300 },
      { text: 'Total IVA 23,00', x: 350, y: 314 },
      { text: 'Total Documento 123,00', x: 350, y: 328 },
      { text: 'Pagamento por transferência. Obrigado pela preferência.', x: 40, y: 360 },
    ];
    const pdf = await writeFixture(scratch.file('pt-letterhead.pdf'), await textPdf([body], [{ page: 1, png: letterhead, x: 28, y: 25, size: 584, height: 40 }]));
    const found = fields(await firstPageEntities(invoicesUniversalModel, pdf, 'pdf'));
    expect(found).toMatchObject({ VendorName: 'Instalações Santos Lda', InvoiceId: '222177' });
  });

  it('reads umlauts English OCR took for other letters or a digit ("Miller & S6hne") with the accented models', async () => {
    const scale = 200 / 72;
    const page: Placed[] = [
      { text: 'Müller & Söhne GmbH', x: 40, y: 40, size: 14 },
      { text: 'Hauptstraße 5, 80331 München', x: 40, y: 58 },
      { text: 'Rechnungs-Nr.: RE-24-00731', x: 380, y: 110 },
      { text: 'Rechnungsdatum: 14.02.2024', x: 380, y: 124 },
      { text: 'Rechnung', x: 40, y: 190, size: 16 },
      { text: 'Nettobetrag 5.000,00', x: 380, y: 270 },
      { text: 'zzgl. 19% MwSt. 950,00', x: 380, y: 286 },
      { text: 'Gesamtbetrag 5.950,00', x: 380, y: 304 },
      { text: 'Zahlbar innerhalb von 14 Tagen ohne Abzug. Vielen Dank.', x: 40, y: 340 },
    ].map((p) => ({ ...p, x: p.x * scale, y: p.y * scale, size: (p.size ?? 10) * scale }));
    const image = await writeFixture(scratch.file('de-scan.png'), await scannedLook(await renderPage(page, { width: 1654, height: 1100 }), { degrees: 1.2, noise: 60 }));
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ VendorName: 'Müller & Söhne GmbH', InvoiceTotal: '5950.00' });
  });

  it('reads again a name whose first reading has an accent the page\'s language does not write ("Séhne" on a German page)', async () => {
    const lines: Placed[] = [
      { text: 'Müller & Söhne GmbH', x: 40, y: 40, size: 14 },
      { text: 'Hauptstraße 5, 80331 München', x: 40, y: 58, size: 10 },
      { text: 'Rechnungs-Nr.: RE-24-00731', x: 380, y: 110, size: 10 },
      { text: 'Rechnungsdatum: 14.02.2024', x: 380, y: 124, size: 10 },
      { text: 'Rechnung', x: 40, y: 190, size: 16 },
      { text: 'Gesamtbetrag 5.950,00 €', x: 380, y: 304, size: 10 },
      { text: 'Zahlbar innerhalb von 14 Tagen ohne Abzug. Vielen Dank.', x: 40, y: 340, size: 10 },
    ];
    const pdf = await writeFixture(scratch.file('de-lowres.pdf'), await textPdf([lines]));
    // A 100 dpi scan: English OCR reads the "ö" of "Söhne" as an "é".
    const scan = await scannedLook(await greyPng(await renderPdfPageGrey(pdf, 1, 100)), { degrees: 1.2, noise: 60 });
    const image = await writeFixture(scratch.file('de-lowres.png'), scan);
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found.VendorName).toBe('Müller & Söhne GmbH');
  });

  it('finds the name\'s words on their own line when the crop of the name catches the line under it', async () => {
    // The name's crop, grown to keep its accents whole, takes in the top of the address set tight
    // under it; the second reading then holds words of both lines.
    const page = await renderPage(
      [
        { text: 'Factura', x: 200, y: 250, size: 90, font: 'sans' },
        { text: 'Transportes Martínez SL', x: 1400, y: 240, size: 62, font: 'sans' },
        { text: 'Calle Alcalá 42', x: 1900, y: 290, size: 40, font: 'sans' },
        { text: '02962 Madrid', x: 1930, y: 335, size: 40, font: 'sans' },
        { text: 'Factura nº 20251085', x: 200, y: 500, font: 'sans' },
        { text: 'Fecha factura 09/05/2025', x: 200, y: 580, font: 'sans' },
        { text: 'Facturar a', x: 200, y: 740, font: 'sans' },
        { text: 'Lumen Media SL', x: 200, y: 800, font: 'sans' },
        { text: 'Base imponible 2.201,55', x: 1300, y: 1000, font: 'sans' },
        { text: 'IVA 10% 220,16', x: 1300, y: 1070, font: 'sans' },
        { text: 'Total a pagar (EUR) 2.421,71', x: 1300, y: 1140, font: 'sans' },
        { text: 'Gracias por su confianza.', x: 200, y: 1250, font: 'sans' },
      ],
      { width: 2480, height: 1350 },
    );
    const image = await writeFixture(scratch.file('tight-name.png'), await scannedLook(page, { degrees: 0.3, noise: 40 }));
    const found = fields(await firstPageEntities(invoicesUniversalModel, image, 'image'));
    expect(found).toMatchObject({ VendorName: 'Transportes Martínez SL', InvoiceTotal: '2421.71' });
  });

  it('reads again, enlarged, a name OCR read as smudges, and takes that reading only when it is sure', async () => {
    const page = await renderPage(
      [
        { text: 'Bill to:', x: 200, y: 200, size: 40, font: 'sans' },
        { text: 'James Kumar', x: 200, y: 260, size: 46, font: 'sans' },
        { text: 'Rua Augusta 11', x: 200, y: 320, size: 40, font: 'sans' },
      ],
      { width: 1400, height: 400 },
    );
    const image = await writeFixture(scratch.file('smudged-name.png'), page);
    for await (const source of readPages(await modelInput(image, 'image', [1]), { languages: ['en'] })) {
      const text = buildPageText(source.words);
      const name = text.lines.find((line) => line.text === 'James Kumar')!;
      // The first reading as a low-resolution scan gives it: the same place, letters read with next to no confidence.
      const smudged = { ...name, text: 'samba Keone', words: name.words.map((w, i) => ({ ...w, text: ['samba', 'Keone'][i]!, confidence: 0.01 })) };
      const accented = await accentedWords(source, [smudged]);
      expect(withAccents('samba Keone', accented)).toBe('James Kumar');
      // Where the pixels show no sure name, nothing is taken.
      const blank = { ...smudged, box: { ...smudged.box, left: smudged.box.left + 900 } };
      expect((await accentedWords(source, [blank])).size).toBe(0);
    }
  });
});

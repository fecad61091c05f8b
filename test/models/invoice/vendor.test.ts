import { describe, expect, it } from 'vitest';
import type { Entity } from '../../../src/domain/entities.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { buildPageText, type PageWord } from '../../../src/models/page/text/text-lines.js';
import { correctLegalForm, domainSpellsName, recipientUnderSenderLine } from '../../../src/models/fields/vendor.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, textPdf, writeFixture, type Placed } from '../document-fixtures.js';

/** A page of text-layer lines, one word each, one under the other. */
const pageOf = (lines: readonly string[]) =>
  buildPageText(lines.map((text, i) => ({ text, box: { left: 100, top: 100 + 40 * i, width: text.length * 15, height: 28 }, confidence: 1, ocrLine: `1.${i}.1` })));

function vendorOf(entities: readonly Entity[]): string | null | undefined {
  const vendor = entities.find((e) => e.category === 'VendorName');
  return vendor?.notDetected ? null : vendor?.keyValues[0]?.contentNormalized;
}

const ITEMS: Placed[] = [
  { text: 'Description', x: 50, y: 300 },
  { text: 'Qty', x: 330, y: 300 },
  { text: 'Amount', x: 480, y: 300 },
  { text: 'Consulting services', x: 50, y: 316 },
  { text: '2', x: 330, y: 316 },
  { text: '500.00', x: 480, y: 316 },
  { text: 'Total', x: 330, y: 350 },
  { text: '500.00', x: 480, y: 350 },
];

describe('vendor', () => {
  const scratch = useScratchDir();
  let count = 0;
  const read = async (page: Placed[]) => {
    const pdf = await writeFixture(scratch.file(`vendor-${++count}.pdf`), await textPdf([page]));
    return await firstPageEntities(invoicesUniversalModel, pdf, 'pdf');
  };

  it('is the company heading the block with its address and tax number, not the title above it or the customer', async () => {
    const entities = await read([
      { text: 'TAX INVOICE', x: 50, y: 40, size: 20 },
      { text: 'Invoice No: 2024/17', x: 380, y: 40 },
      { text: 'Bill to:', x: 50, y: 90 },
      { text: 'Contoso Trading GmbH', x: 50, y: 104 },
      { text: 'Hauptstraße 5, 10115 Berlin', x: 50, y: 118 },
      { text: 'Kestrel Logistics B.V.', x: 350, y: 90, size: 13 },
      { text: 'Keizersgracht 128', x: 350, y: 106 },
      { text: '1015 CX Amsterdam', x: 350, y: 120 },
      { text: 'BTW-nr: NL123456789B01', x: 350, y: 134 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Kestrel Logistics B.V.');
    expect(entities.find((e) => e.category === 'VendorTaxId')?.keyValues[0]?.contentNormalized).toBe('NL123456789B01');
  });

  it('is not the address line whose Dutch postcode ends in letters that spell a legal form ("5211 AB")', async () => {
    const entities = await read([
      { text: 'Bakkerij De Gouden Korst', x: 50, y: 40 },
      { text: "Molenstraat 8, 5211 AB 's-Hertogenbosch", x: 50, y: 54 },
      { text: 'KvK 12345678  BTW NL001234567B01', x: 50, y: 68 },
      { text: 'FACTUUR', x: 50, y: 110, size: 16 },
      { text: 'Factuurnr.: 2026-112', x: 50, y: 130 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Bakkerij De Gouden Korst');
  });

  it('is found in the legal line of the footer when the header names nobody', async () => {
    const entities = await read([
      { text: 'INVOICE', x: 50, y: 40, size: 20 },
      { text: 'Invoice No: 2024/17', x: 50, y: 70 },
      { text: 'Date: 15/01/2024', x: 50, y: 84 },
      ...ITEMS,
      { text: 'Oakridge Media · Seestrasse 4 · 8002 Zürich · VAT CHE-123.456.789 · IBAN CH93 0076 2011 6238 5295 7', x: 50, y: 800, size: 8 },
    ]);
    expect(vendorOf(entities)).toBe('Oakridge Media');
  });

  it('is not the title of another kind of document (a return slip, a delivery note)', async () => {
    for (const title of ['RETURNS', 'Delivery Note', 'Lieferschein']) {
      const entities = await read([
        { text: title, x: 330, y: 40, size: 20 },
        { text: 'Customer: White Triangle', x: 250, y: 80 },
        { text: 'Delivery Date: 15/01/2024', x: 250, y: 94 },
        ...ITEMS,
        { text: 'Oakridge Media · Seestrasse 4 · 8002 Zürich · VAT CHE-123.456.789', x: 50, y: 800, size: 8 },
      ]);
      expect(vendorOf(entities), title).not.toBe(title);
    }
  });

  it('is the full name heading the block, not the short form a logo prints above it', async () => {
    const entities = await read([
      { text: 'FATURA', x: 42, y: 56, size: 26 },
      { text: 'CONSULTORIA', x: 474, y: 48, size: 14 },
      { text: 'Consultoria Costa', x: 42, y: 126, size: 17 },
      { text: 'Avenida da Liberdade 129', x: 42, y: 142 },
      { text: '8732-082 Braga', x: 42, y: 152 },
      { text: 'NIF: 572382006', x: 42, y: 162 },
      { text: 'Tel. +22 062 1434 · info@consultoriacos.com', x: 42, y: 172 },
      { text: 'Faturar a:', x: 420, y: 122 },
      { text: 'Falcon Technologies', x: 420, y: 132 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Consultoria Costa');
  });

  it('heads a one-line address whose parts dashes separate, in print of the same size', async () => {
    const entities = await read([
      { text: 'Studio Grafico Bianchi', x: 50, y: 40 },
      { text: 'di Laura Bianchi - Via Roma 10 - 20121 Milano - P.IVA 01234567897', x: 50, y: 54 },
      { text: 'Spett.le', x: 330, y: 100 },
      { text: 'Ristorante Da Mario S.r.l.', x: 330, y: 114 },
      { text: 'FATTURA N. 45/2024 del 18/09/2024', x: 50, y: 160 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Studio Grafico Bianchi');
  });

  it('is the name with its legal form, not the legal line that goes on with its capital', async () => {
    const entities = await read([
      { text: 'Atelier Duval SARL', x: 50, y: 40, size: 16 },
      { text: 'Menuiserie et ébénisterie', x: 50, y: 60 },
      { text: '27, rue des Tanneurs, 69005 Lyon', x: 50, y: 72 },
      { text: 'Facture n° FA-2024-118 du 3 mars 2024', x: 50, y: 150 },
      ...ITEMS,
      { text: 'Atelier Duval SARL au capital de 10 000 € - RCS Lyon 303 265 045', x: 50, y: 790, size: 8 },
      { text: 'Atelier Duval SARL au capital de 10 000 € - RCS Lyon 303 265 045', x: 50, y: 800, size: 8 },
    ]);
    expect(vendorOf(entities)).toBe('Atelier Duval SARL');
  });

  it('heads a letterhead whose address and phone share one line, with no legal form in its name', async () => {
    const entities = await read([
      { text: 'Riverside Veterinary Clinic', x: 200, y: 40, size: 13 },
      { text: '2210 River Road · Sacramento, CA 95833 · (916) 555-0199', x: 150, y: 56 },
      { text: 'Client: Daniel Okafor', x: 50, y: 90 },
      { text: 'Invoice: 77120', x: 400, y: 90 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Riverside Veterinary Clinic');
  });

  it('is not the sender line that starts with the letterhead\'s name', async () => {
    const entities = await read([
      { text: 'Evergreen Engineering LLP', x: 330, y: 50, size: 20 },
      { text: '202 Harbour Road', x: 460, y: 66 },
      { text: 'Leeds EV18 2UC', x: 470, y: 80 },
      { text: 'VAT number: GB417944662', x: 420, y: 94 },
      { text: 'Evergreen Engineering LLP - 202 Harbour Road - Leeds EV18 2UC', x: 42, y: 120, size: 7 },
      { text: 'Sharma Textiles Ltd.', x: 42, y: 134 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('Evergreen Engineering LLP');
  });

  it('does not begin with the identifiers or the form row printed on the line above its name', async () => {
    const entities = await read([
      { text: 'GLN 4012345000009 Lief-Nr: 549910', x: 50, y: 60 },
      { text: 'NORDWERK GMBH', x: 50, y: 74 },
      { text: 'Bahnhofstraße 99', x: 50, y: 88 },
      { text: '99199 Musterhausen', x: 50, y: 102 },
      { text: 'RECHNUNG', x: 380, y: 60, size: 16 },
      { text: 'Rechnungsnummer: R-1001', x: 380, y: 84 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('NORDWERK GMBH');
    const labelled = await read([
      { text: 'Art der Rechnung: REG', x: 50, y: 60 },
      { text: 'SUDWERK GMBH', x: 50, y: 74 },
      { text: 'Hafenweg 3', x: 50, y: 88 },
      { text: '20457 Hamburg', x: 50, y: 102 },
      { text: 'RECHNUNG', x: 380, y: 60, size: 16 },
      { text: 'Rechnungsnummer: R-1002', x: 380, y: 84 },
      ...ITEMS,
    ]);
    expect(vendorOf(labelled)).toBe('SUDWERK GMBH');
  });

  it('is not a legal form standing apart from its name', async () => {
    // OCR cut the name short and set its legal form apart: "BRIGHTPATH ENGIN" ... "SARL".
    const entities = await read([
      { text: 'BRIGHTPATH ENGIN', x: 279, y: 50, size: 12 },
      { text: 'SARL', x: 511, y: 50, size: 14 },
      { text: 'Rue du Marché 135', x: 493, y: 66, size: 7 },
      { text: '2413 Lausanne', x: 485, y: 76, size: 7 },
      { text: 'UID: CHE-221.671.770', x: 453, y: 86, size: 7 },
      { text: 'BRIGHTPATH ENGINEERING SARL · Rue du Marché 135 · 2413 Lausanne', x: 42, y: 124, size: 9 },
      { text: 'Lim Electricals Sarl', x: 43, y: 140 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBe('BRIGHTPATH ENGINEERING SARL');
  });

  it('heads its block of address lines though a tall title beside them has a row of its own between theirs', async () => {
    const page: Placed[] = [
      { text: 'INVOICE', x: 40, y: 72, size: 44 },
      { text: 'Jane Doe Design', x: 400, y: 40 },
      { text: '77 Elm Street, Apt 4', x: 400, y: 54 },
      { text: 'Portland, OR 97205', x: 400, y: 68 },
      { text: '(503) 555-0199', x: 400, y: 82 },
      ...ITEMS,
    ];
    expect(vendorOf(await read(page))).toBe('Jane Doe Design');
  });

  it('stays not detected rather than being a title or a heading', async () => {
    const entities = await read([
      { text: 'INVOICE', x: 50, y: 40, size: 20 },
      { text: 'Order summary', x: 50, y: 80, size: 14 },
      { text: 'Invoice No: 2024/17', x: 50, y: 110 },
      ...ITEMS,
    ]);
    expect(vendorOf(entities)).toBeNull();
  });

  it('is sure when the company\'s own web or mail domain spells its name, legal form apart, outside the customer\'s block', async () => {
    const confidence = (entities: readonly Entity[]) => entities.find((e) => e.category === 'VendorName' && !e.notDetected)?.confidence ?? 0;
    const letter = (contact: Placed[], customer: Placed[] = []) =>
      read([
        { text: 'Festrol Corp Ltd.', x: 50, y: 40, size: 16 },
        { text: '18 Harbour Road, Halifax NS B3H 1A1', x: 50, y: 62 },
        ...contact,
        { text: 'Bill to:', x: 350, y: 110 },
        { text: 'Ridgeway Farms', x: 350, y: 124 },
        ...customer,
        { text: 'Invoice No: 1721', x: 50, y: 200 },
        ...ITEMS,
      ]);
    const spelled = await letter([{ text: 'accounts@festrolcorp.io · www.festrolcorp.io', x: 50, y: 76 }]);
    expect(vendorOf(spelled)).toBe('Festrol Corp Ltd.');
    expect(confidence(spelled)).toBeGreaterThanOrEqual(0.9);
    // No domain, another company's, or one a letter off: the letterhead alone, below 0.9.
    for (const contact of [[], [{ text: 'billing@stripe.com', x: 50, y: 76 }], [{ text: 'www.festrolcorps.io', x: 50, y: 76 }]]) {
      const entities = await letter(contact);
      expect(vendorOf(entities)).toBe('Festrol Corp Ltd.');
      expect(confidence(entities)).toBeLessThan(0.9);
    }
    // A label ("festrol:") or a word in lower case only is no letterhead, whatever domain spells it.
    expect(domainSpellsName(pageOf(['festrol:', 'www.festrol.io']), 'festrol:', [])).toBe(false);
    expect(domainSpellsName(pageOf(['festrol', 'www.festrol.io']), 'festrol', [])).toBe(false);
    expect(domainSpellsName(pageOf(['Festrol', 'www.festrol.io']), 'Festrol', [])).toBe(true);
    // The customer's block printing the vendor's domain (a reseller's contact) is no finding of the vendor.
    expect(confidence(await letter([], [{ text: 'Contact: j.doe@festrolcorp.io', x: 350, y: 138 }]))).toBeLessThan(0.9);
  });
});

describe('recipientUnderSenderLine', () => {
  /** Lines of words as OCR gives them: each line's words left to right, `size` tall, from `top`. */
  const ocrPage = (lines: Array<{ text: string; top: number; size: number }>): PageWord[] =>
    lines.flatMap(({ text, top, size }, l) => {
      let left = 100;
      return text.split(' ').map((word) => {
        const box = { left, top, width: word.length * size * 0.55, height: size };
        left += box.width + size * 0.35;
        return { text: word, box, confidence: 0.9, ocrLine: `1.${l}.1` };
      });
    });

  it('finds the window address under a sender line whose dots OCR read as dashes', () => {
    const page = buildPageText(
      ocrPage([
        { text: 'Silverline Logistics S.A.', top: 100, size: 40 },
        { text: 'Avenida da Liberdade 17', top: 150, size: 28 },
        { text: 'Silverline Logistics S.A. - Avenida da Liberdade 17 - 6045-237 Lisboa', top: 400, size: 20 },
        { text: 'Transportes Santos Unipessoal Lda', top: 430, size: 28 },
        { text: 'Rua do Sol 5', top: 470, size: 28 },
        { text: '7587-010 Faro', top: 510, size: 28 },
      ]),
    );
    expect(recipientUnderSenderLine(page)?.text).toBe('Transportes Santos Unipessoal Lda');
  });

  it('finds the window address under a sender line whose dots OCR read as other marks it was unsure of', () => {
    const words = ocrPage([
      { text: 'Sophie Hartmann', top: 40, size: 30 },
      { text: 'Sophie Hartmann « Bergmannstraße 12 : 10961 Berlin', top: 300, size: 14 },
      { text: 'Kreativagentur Blau GmbH', top: 330, size: 20 },
      { text: 'Torstraße 140', top: 360, size: 20 },
      { text: '10119 Berlin', top: 390, size: 20 },
    ]);
    const unsure = words.map((word) => (/^[«:]$/.test(word.text) ? { ...word, confidence: 0.2 } : word));
    expect(recipientUnderSenderLine(buildPageText(unsure))?.text).toBe('Kreativagentur Blau GmbH');
    // Marks OCR was sure of are what they are: a label's colon makes no sender line.
    expect(recipientUnderSenderLine(buildPageText(words.map((word) => ({ ...word, confidence: 1 }))))).toBeUndefined();
  });

  it('takes the sender line by its words\' height, though OCR read one of its dashes as a tall mark', () => {
    const words = ocrPage([
      { text: 'BRIGHTPATH ENGINEERING SARL', top: 40, size: 30 },
      { text: 'Rue du Marché 135', top: 80, size: 20 },
      { text: 'BRIGHTPATH ENGINEERING SARL - Rue du Marché 135 - 2413 Lausanne', top: 300, size: 14 },
      { text: 'Lim Electricals Sarl', top: 330, size: 20 },
      { text: 'Seestrasse 38', top: 360, size: 20 },
      { text: '4039 Basel', top: 390, size: 20 },
    ]).map((word) => (word.text === '-' && word.box.top === 300 ? { ...word, box: { ...word.box, top: 294, height: 30 } } : word));
    expect(recipientUnderSenderLine(buildPageText(words))?.text).toBe('Lim Electricals Sarl');
  });
});

describe('legal forms OCR spoiled', () => {
  it('puts back "Sdn Bhd" from the letters thermal print is misread as, and leaves other words alone', () => {
    expect(['SDN EHD', 'SON BHD', 'SDN 8HD', 'S0N. RHD', 'Sdn Ehd'].map(correctLegalForm)).toEqual(['SDN BHD', 'SDN BHD', 'SDN BHD', 'SDN. BHD', 'Sdn Bhd']);
    expect(correctLegalForm('SEND THE BOX')).toBe('SEND THE BOX');
  });
});

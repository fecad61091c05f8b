/**
 * Fuzz of the e-invoice reader: valid CII and UBL invoices with one to three hostile changes
 * (cut anywhere, a DOCTYPE with internal or external entities, bytes flipped, elements nested past
 * the depth limit, text and attributes grown past their limits, declarations of odd encodings,
 * values replaced by garbage) must give either a reading or a reason, never an exception; and the
 * invoice model reading such a file as the task source must end with fields or a Warning entity,
 * never fail the task. Fixed seed, so a failure replays.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readInvoiceXml } from '../../../src/models/einvoice/read-invoice-xml.js';
import { invoicesUniversalModel } from '../../../src/models/invoice/invoice.js';
import { useScratchDir } from '../../engines/fixtures.js';
import { firstPageEntities, writeFixture } from '../document-fixtures.js';
import { ciiInvoice, SAMPLE, ublInvoice, zugferd1Invoice } from './einvoice-fixtures.js';

const SEED = 20261128;
const VALID = [ciiInvoice(), zugferd1Invoice(), ublInvoice(), ublInvoice(SAMPLE, 'CreditNote')];

type Change = (xml: string) => string;

const afterDeclaration = (xml: string, insert: string) => {
  const end = xml.startsWith('<?xml') ? xml.indexOf('?>') + 2 : 0;
  return xml.slice(0, end) + insert + xml.slice(end);
};
/** The position just inside the root element's start tag's end. */
const insideRoot = (xml: string) => xml.indexOf('>', xml.indexOf('<', xml.startsWith('<?xml') ? xml.indexOf('?>') + 2 : 0) + 1) + 1;

const change: fc.Arbitrary<Change> = fc.oneof(
  fc.nat().map((at): Change => (xml) => xml.slice(0, at % (xml.length + 1))),
  fc.constantFrom<Change>(
    (xml) => afterDeclaration(xml, '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'),
    (xml) => afterDeclaration(xml, '<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>').replace(/>([^<]{1,40})</, '>&x;<'),
    (xml) => afterDeclaration(xml, '<!DOCTYPE r SYSTEM "http://127.0.0.1:1/evil.dtd">'),
    (xml) => xml.replace(/^<\?xml[^?]*\?>/, '<?xml version="1.0" encoding="UTF-7"?>'),
    (xml) => xml.replace(/^<\?xml[^?]*\?>/, '<?xml version="1.0" encoding="x-no-such-charset"?>'),
    (xml) => xml.slice(0, insideRoot(xml)) + '<d>'.repeat(5000) + '</d>'.repeat(5000) + xml.slice(insideRoot(xml)),
    (xml) => xml.replace(/>([^<]{1,40})</, `>${'9'.repeat(300_000)}<`),
    (xml) => xml.replace(/<([A-Za-z:]+)/, `<$1 a="${'x'.repeat(300_000)}"`),
    (xml) => xml.replace(/>([^<]{1,40})</g, '>\u0000\uFFFE<'),
    (xml) => xml.replace(/>[0-9.,-]+</g, '>NaN<'),
    (xml) => xml.replace(/>[0-9.,-]+</g, '>1e309<'),
    (xml) => xml.replace(/<\/[^>]+>$/, ''),
    (xml) => xml + '<extra/>',
    (xml) => `\uFEFF\uFEFF${xml}`,
  ),
  fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(([at, byte]): Change => (xml) => {
    const i = at % Math.max(1, xml.length);
    return xml.slice(0, i) + String.fromCharCode(byte) + xml.slice(i + 1);
  }),
);

const hostileXml = fc.tuple(fc.constantFrom(...VALID), fc.array(change, { minLength: 1, maxLength: 3 })).map(([xml, changes]) => changes.reduce((x, c) => c(x), xml));

describe('the e-invoice reader under hostile changes', () => {
  it('gives a reading or a reason, never an exception', () => {
    fc.assert(
      fc.property(hostileXml, (xml) => {
        const reading = readInvoiceXml(Buffer.from(xml));
        if (reading.ok) expect(reading.data.fields).toBeTypeOf('object');
        else expect(reading.reason).toMatch(/\S/);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  const scratch = useScratchDir();

  it('ends, as a task source, with fields or a Warning entity, never a failed reading', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(hostileXml, async (xml) => {
        const entities = await firstPageEntities(invoicesUniversalModel, await writeFixture(scratch.file(`fuzz-${n++}.xml`), Buffer.from(xml)), 'xml');
        const read = entities.some((e) => e.type === 'Field' && !e.notDetected && e.documentData);
        const warned = entities.some((e) => e.type === 'Warning' && e.category === 'DocumentData');
        expect(read || warned).toBe(true);
      }),
      { seed: SEED, numRuns: 40 },
    );
  });
});

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storable, storableJson, storableText } from '../src/db/storable.js';
import { createTestContext, type TestContext } from './support/context.js';

/**
 * What a document's text becomes before it is stored, checked against Postgres itself: any string
 * of UTF-16 code units (NUL, the other controls, lone surrogates among them) goes in as text and
 * as jsonb, key and value, and comes back as it was made storable.
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx.close());

/** Code units, weighted towards the ones Postgres or a text layer make special. */
const unit = fc.oneof(
  fc.constantFrom(0x00, 0x01, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1f, 0x20, 0x7f, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0x41),
  fc.integer({ min: 0, max: 0xffff }),
);
const anyText = fc.array(unit, { maxLength: 24 }).map((units) => String.fromCharCode(...units));

describe('storable text', () => {
  it('is accepted by Postgres as text and as jsonb, key and value, and read back unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (text) => {
        const stored = storableText(text);
        const json = JSON.stringify(storable({ [text]: [text] }));
        const [row] = await ctx.prisma.$queryRaw<Array<{ text: string; json: unknown }>>`SELECT ${stored}::text AS text, ${json}::jsonb AS json`;
        expect(row!.text).toBe(stored);
        expect(row!.json).toEqual({ [stored]: [stored] });
      }),
      { numRuns: 300 },
    );
  });

  it('keeps every offset: each unstorable code unit becomes one U+FFFD, tab, line feed and carriage return stay', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const stored = storableText(text);
        expect(stored).toHaveLength(text.length);
        for (let i = 0; i < text.length; i++) if (stored[i] !== text[i]) expect(stored[i]).toBe('\uFFFD');
      }),
    );
    expect(storableText('a\u0000b\tc\nd\re\u0001f\u001f\ud83d\ude00g\ud800')).toBe('a\uFFFDb\tc\nd\re\uFFFDf\uFFFD\ud83d\ude00g\uFFFD');
  });

  it('leaves a clean value as it is (no copy) and everything that is not text alone', () => {
    const clean = { entities: [{ content: 'Total 12.50', spans: [{ offset: 0, length: 11 }], confidence: 0.9, normalized: null }] };
    expect(storable(clean)).toBe(clean);
    const when = new Date();
    expect(storable({ at: when, count: { increment: 1 }, name: 'a\u0000' })).toEqual({ at: when, count: { increment: 1 }, name: 'a\uFFFD' });
    expect(storable({ at: when }).at).toBe(when);
  });

  it('made on the JSON text, is the JSON of the storable value (the same value, keys in any order)', () => {
    // Keys: the names of the result's fields, two of them unstorable (no two that become one key).
    const anyValue = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, anyText, fc.double(), fc.boolean(), fc.constant(null), fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(fc.constantFrom('content', 'spans', 'k\u0000', 'k\ud800'), tie('value'), { maxKeys: 4 })),
    })).value;
    fc.assert(
      fc.property(anyValue, (value) => {
        expect(JSON.parse(storableJson(value))).toEqual(JSON.parse(JSON.stringify(storable(value))));
      }),
      { numRuns: 2000 },
    );
    // Backslashes in the text itself are no escapes of a control.
    for (const text of ['\\u0000', '\\\u0000', '\\b', 'C:\\dir\\file', '\\ud800', '\u0000\\u0001\\\u0002']) {
      expect(JSON.parse(storableJson({ text }))).toEqual(storable({ text }));
    }
  });
});

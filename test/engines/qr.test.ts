import QRCode from 'qrcode';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readBarcodes } from '../../src/engines/qr.js';
import { textImage } from './fixtures.js';

// The fiscal QR code printed on Portuguese invoices (ATCUD fields A..R).
const ATCUD =
  'A:123456789*B:999999990*C:PT*D:FT*E:N*F:20240115*G:FT A/1*H:ABCD1234-1*I1:PT*I7:100.00*I8:23.00*N:23.00*O:123.00*Q:abcd*R:1234';
const QR_LEFT = 1500;
const QR_TOP = 900;
const MODULE_PX = 6;
const QUIET_ZONE_PX = 4 * MODULE_PX;

describe('readBarcodes', () => {
  let page: Buffer;
  let qrSize: number;

  beforeAll(async () => {
    // The wasm binary must come from node_modules: any download attempt fails the test.
    vi.stubGlobal('fetch', () => Promise.reject(new Error('network access attempted')));
    const qr = await QRCode.toBuffer(ATCUD, {
      type: 'png',
      errorCorrectionLevel: 'M',
      margin: QUIET_ZONE_PX / MODULE_PX,
      scale: MODULE_PX,
    });
    qrSize = (await sharp(qr).metadata()).width;
    // An invoice-like page: text at the top, the code in the lower right corner.
    const text = await textImage(['FATURA FT A/1', 'Total 123.00 EUR'], { width: 2480, fontSize: 50 });
    page = await sharp({ create: { width: 2480, height: 1800, channels: 3, background: '#ffffff' } })
      .composite([
        { input: text, left: 0, top: 0 },
        { input: qr, left: QR_LEFT, top: QR_TOP },
      ])
      .png()
      .toBuffer();
  });
  afterAll(() => {
    vi.unstubAllGlobals();
  });

  it('decodes a fiscal QR code on a page exactly, with its corners in page pixels', async () => {
    const [code, ...others] = await readBarcodes(page);
    expect(others).toEqual([]);
    expect(code).toMatchObject({ text: ATCUD, format: 'QRCode' });
    // The corners are the symbol's outer edges: the pasted image minus its quiet zone.
    const near = (point: { x: number; y: number }, x: number, y: number) => {
      expect(Math.abs(point.x - x)).toBeLessThanOrEqual(1);
      expect(Math.abs(point.y - y)).toBeLessThanOrEqual(1);
    };
    const [start, end] = [QUIET_ZONE_PX, qrSize - QUIET_ZONE_PX];
    const { topLeft, topRight, bottomRight, bottomLeft } = code!.position;
    near(topLeft, QR_LEFT + start, QR_TOP + start);
    near(topRight, QR_LEFT + end, QR_TOP + start);
    near(bottomRight, QR_LEFT + end, QR_TOP + end);
    near(bottomLeft, QR_LEFT + start, QR_TOP + end);
  });

  it('reads raw RGBA pixels as well', async () => {
    const { data, info } = await sharp(page).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const codes = await readBarcodes({ data, width: info.width, height: info.height });
    expect(codes.map((c) => c.text)).toEqual([ATCUD]);
  });

  it('finds nothing on a page without a code', async () => {
    expect(await readBarcodes(await textImage(['No code on this page']))).toEqual([]);
  });
});

import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { sniffFile } from '../../src/engines/file-type.js';
import { useScratchDir, tool } from './fixtures.js';

describe('sniffFile', () => {
  const scratch = useScratchDir();
  const { file } = scratch;
  const tiny = () => sharp({ create: { width: 64, height: 64, channels: 3, background: '#336699' } });

  beforeAll(async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage();
    const pdfBytes = await pdf.save();
    await writeFile(file('doc.pdf'), pdfBytes);
    // PDF readers look for the header in the first 1,024 bytes: what a server or mail gateway left before it is no other type.
    const preamble = (length: number) => Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: application/pdf\r\n\r\n'.padEnd(length, '\n'));
    await writeFile(file('preamble.pdf'), Buffer.concat([preamble(1019), pdfBytes]));
    await writeFile(file('xml-preamble.pdf'), Buffer.concat([Buffer.from('<?xml version="1.0"?>\n'), pdfBytes]));
    await writeFile(file('late-header.pdf'), Buffer.concat([preamble(1020), pdfBytes]));
    await tiny().png().toFile(file('image.png'));
    await tiny().jpeg().toFile(file('image.jpg'));
    await tiny().webp().toFile(file('image.webp'));
    await tiny().gif().toFile(file('image.gif'));
    await tiny().tiff().toFile(file('image.tif'));
    await tool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=white:s=16x16', '-frames:v', '1', file('image.bmp')]);
    await tool('sox', ['-n', '-r', '16000', '-c', '1', file('tone.wav'), 'synth', '0.5', 'sine', '440']);
    await tool('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'color=blue:s=64x64:d=0.5', '-c:v', 'libx264', file('clip.mp4')]);
    // Names that lie about the content: only the bytes may decide.
    await tiny().png().toFile(file('scan.pdf'));
    await writeFile(file('notes.png'), 'just some plain text, not an image\n');
    await writeFile(file('archive.jpg'), gzipSync(Buffer.from('compressed')));
  });

  it.each([
    ['doc.pdf', 'application/pdf', 'pdf', 'pdf'],
    ['preamble.pdf', 'application/pdf', 'pdf', 'pdf'],
    ['xml-preamble.pdf', 'application/pdf', 'pdf', 'pdf'],
    ['image.png', 'image/png', 'png', 'image'],
    ['image.jpg', 'image/jpeg', 'jpg', 'image'],
    ['image.webp', 'image/webp', 'webp', 'image'],
    ['image.gif', 'image/gif', 'gif', 'image'],
    ['image.bmp', 'image/bmp', 'bmp', 'image'],
    ['image.tif', 'image/tiff', 'tif', 'tiff'],
    ['tone.wav', 'audio/wav', 'wav', 'audio'],
    ['clip.mp4', 'video/mp4', 'mp4', 'video'],
    ['scan.pdf', 'image/png', 'png', 'image'],
    ['archive.jpg', 'application/gzip', 'gz', 'unsupported'],
  ])('%s is %s (%s)', async (name, mime, ext, kind) => {
    expect(await sniffFile(file(name))).toEqual({ mime, ext, kind });
  });

  it('reports unrecognizable content as unsupported without a type', async () => {
    expect(await sniffFile(file('notes.png'))).toEqual({ mime: null, ext: null, kind: 'unsupported' });
  });

  it('takes no PDF header that ends past the first 1,024 bytes', async () => {
    expect(await sniffFile(file('late-header.pdf'))).toEqual({ mime: null, ext: null, kind: 'unsupported' });
  });
});

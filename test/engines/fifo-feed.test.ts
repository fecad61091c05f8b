import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openFifoFeed } from '../../src/engines/fifo-feed.js';
import { runProcess } from '../../src/engines/process.js';

/** `count` chunks of `size` bytes, each byte its chunk's index: what a decoder streams. */
async function* chunks(count: number, size: number): AsyncGenerator<Uint8Array> {
  for (let index = 0; index < count; index++) yield new Uint8Array(size).fill(index % 251);
}

describe('FIFO feed', () => {
  it('hands a reader that opens it by name the whole stream, then its end of file', async () => {
    const fifo = await openFifoFeed('audio.raw');
    try {
      const read = runProcess('sha256sum', [fifo.path], { timeoutMs: 30_000 });
      await fifo.feed(chunks(64, 65_536));
      const { stdout } = await read;
      const expected = await runProcess('sha256sum', [], { input: await collect(chunks(64, 65_536)), timeoutMs: 30_000 });
      expect(stdout.toString().split(' ')[0]).toBe(expected.stdout.toString().split(' ')[0]);
    } finally {
      await fifo.close();
    }
    expect(existsSync(fifo.path)).toBe(false);
  });

  it('ends the feed when a reader that stopped early is followed by close, however much input is left', async () => {
    const fifo = await openFifoFeed('audio.raw');
    // 64 MiB, far more than the pipe buffers: without the close, the feed would wait for room for ever.
    const fed = fifo.feed(chunks(1024, 65_536));
    const { stdout } = await runProcess('head', ['-c', '1000', fifo.path], { timeoutMs: 30_000 });
    expect(stdout.length).toBe(1000);
    await fifo.close();
    await expect(fed).resolves.toBeUndefined();
    expect(existsSync(fifo.path)).toBe(false);
  });
});

async function collect(input: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const part of input) parts.push(part);
  return Buffer.concat(parts);
}

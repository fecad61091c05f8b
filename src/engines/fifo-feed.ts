import { constants, open } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { runProcess } from './process.js';

// A bare descriptor, which the socket owns: a FileHandle would close it when collected.
const openDescriptor = promisify(open);

/**
 * A named pipe a child process reads as a file (`path`) while `feed` writes a stream into it at the
 * child's pace. A child's stdin from Node is a socket, which programs that open their input by name
 * (pocketsphinx's -infile /dev/stdin) cannot open; a FIFO they can.
 */
export interface FifoFeed {
  path: string;
  /** Writes `input` and closes the pipe (the reader's end of file); throws the input's failure. */
  feed: (input: AsyncIterable<Uint8Array>) => Promise<void>;
  /** Stops feeding (a reader that has ended) and removes the pipe. */
  close: () => Promise<void>;
}

/** A FIFO named `name` (its extension may matter to the reader) in a directory of its own. */
export async function openFifoFeed(name: string): Promise<FifoFeed> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fifo-'));
  const at = path.join(dir, name);
  try {
    await runProcess('mkfifo', ['-m', '600', at], { timeoutMs: 10_000 });
    // Opened for reading and writing, it opens at once (no reader yet) and the child's open for
    // reading returns at once too; as a socket, writes wait for room instead of blocking a thread.
    const fd = await openDescriptor(at, constants.O_RDWR);
    const pipe = new Socket({ fd, readable: false, writable: true });
    pipe.on('error', () => {}); // a reader gone: the child's exit says why
    return {
      path: at,
      feed: async (input) => {
        for await (const chunk of input) {
          if (pipe.destroyed) return;
          if (!pipe.write(chunk)) await drainedOrClosed(pipe);
        }
        await new Promise<void>((resolve) => pipe.end(resolve));
      },
      close: async () => {
        pipe.destroy();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

function drainedOrClosed(pipe: Socket): Promise<void> {
  return new Promise((resolve) => {
    const go = () => {
      pipe.off('drain', go);
      pipe.off('close', go);
      resolve();
    };
    pipe.on('drain', go);
    pipe.on('close', go);
  });
}

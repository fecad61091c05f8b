/**
 * The memory allocator the Docker image gives its processes (jemalloc through LD_PRELOAD, with the
 * Dockerfile's MALLOC_CONF), for benchmarks that run the app or an engine as the image does
 * outside it: Debian's libjemalloc2 at its path on this machine, the settings read from the
 * Dockerfile, so a benchmark measures the shipped setting and not a copy of it.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Debian's libjemalloc2 for the architectures Node ships for Linux (BENCH_JEMALLOC: another path). */
export function jemallocLibrary(): string {
  const multiarch = { x64: 'x86_64-linux-gnu', arm64: 'aarch64-linux-gnu' }[process.arch as string] ?? `${process.arch}-linux-gnu`;
  return process.env.BENCH_JEMALLOC ?? `/usr/lib/${multiarch}/libjemalloc.so.2`;
}

/** The MALLOC_CONF the Dockerfile gives the image's processes. */
export function imageMallocConf(): string {
  const dockerfile = readFileSync(fileURLToPath(new URL('../../Dockerfile', import.meta.url)), 'utf8');
  const conf = /\bMALLOC_CONF=(\S+)/.exec(dockerfile)?.[1];
  if (!conf) throw new Error('the Dockerfile sets no MALLOC_CONF');
  return conf;
}

/** The environment that gives a process the image's allocator. */
export function imageAllocatorEnv(): Record<string, string> {
  return { LD_PRELOAD: jemallocLibrary(), MALLOC_CONF: imageMallocConf() };
}

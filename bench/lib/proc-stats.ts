/**
 * A process's memory and CPU as Linux counts them (/proc): what the benchmarks measure from
 * outside the app, so the figures include every thread (engine threads too). NaN elsewhere.
 */
import { readdir, readFile } from 'node:fs/promises';

/** A `kB` field of /proc/<pid>/status in bytes: VmRSS (resident now), VmHWM (the peak so far). */
export async function statusBytes(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

/** CPU seconds the process used so far (user + system, all its threads; its child processes once they ended). */
export async function cpuSeconds(pid: number, which: 'all' | 'children' = 'all'): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command name (which may hold spaces): utime, stime, cutime, cstime are the 12th to 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = (which === 'all' ? [11, 12, 13, 14] : [13, 14]).reduce((sum, i) => sum + Number(fields[i] ?? Number.NaN), 0);
  return ticks / 100; // USER_HZ is 100 on Linux
}

export const mb = (bytes: number) => (Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(0)} MB` : 'n/a');

/** Resident bytes of a process and of every process below it (its children, theirs...): the app with its tesseract, pdftoppm, ffmpeg and pocketsphinx children. */
export async function treeRssBytes(pid: number): Promise<number> {
  let sum = 0;
  const pending = [pid];
  while (pending.length) {
    const next = pending.pop()!;
    const rss = await statusBytes(next, 'VmRSS');
    if (!Number.isFinite(rss)) continue; // ended meanwhile
    sum += rss;
    const tasks = await readdir(`/proc/${next}/task`).catch(() => [] as string[]);
    for (const tid of tasks) {
      const children = await readFile(`/proc/${next}/task/${tid}/children`, 'utf8').catch(() => '');
      for (const child of children.split(' ').filter(Boolean)) pending.push(Number(child));
    }
  }
  return sum;
}

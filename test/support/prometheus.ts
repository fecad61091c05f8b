/** Reading Prometheus text exposition in tests. */

/** The value of the sample `name{labels}` (labels matched exactly, in any order); undefined when absent. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([k, v]) => found[k] === v)) return Number(match[3]);
  }
  return undefined;
}

/** Every label set of the samples called `name`. */
export function labelSets(text: string, name: string): Array<Record<string, string>> {
  return text
    .split('\n')
    .map((line) => line.match(/^([a-zA-Z_:][\w:]*)\{(.*)\}\s+\S+/))
    .filter((m): m is RegExpMatchArray => m !== null && m[1] === name)
    .map((m) => Object.fromEntries([...m[2]!.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1]!, l[2]!])));
}

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** A link of a markdown file that leads nowhere. */
export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** The text with fenced code blocks and inline code blanked out (same lines), where nothing is a link or heading. */
function withoutCode(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line.replace(/(`+)[^`]*?\1/g, (code) => ' '.repeat(code.length));
    })
    .join('\n');
}

/**
 * The anchor GitHub gives a heading: lower case, markup and punctuation dropped (letters,
 * digits, spaces, hyphens and underscores stay), spaces as hyphens.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown text's headings; a repeated heading gets -1, -2... as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const match = !fenced && /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!match) continue;
    const slug = headingSlug(match[1]!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count ? `${slug}-${count}` : slug);
  }
  return anchors;
}

/** Link targets of a markdown text with their line numbers: inline links and images, and reference definitions. */
export function linkTargets(markdown: string): Array<{ target: string; line: number }> {
  const targets: Array<{ target: string; line: number }> = [];
  for (const [index, line] of withoutCode(markdown).split('\n').entries()) {
    for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push({ target: match[1]!, line: index + 1 });
    const definition = /^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(\s|$)/.exec(line);
    if (definition) targets.push({ target: definition[1]!, line: index + 1 });
  }
  return targets;
}

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The relative links and anchors of `file` (markdown `text`) that do not resolve: a file or
 * directory missing under `root`, a link out of `root`, or an #anchor no heading of the target
 * has. Links with a scheme (https:, mailto:) are not followed.
 */
export function brokenLinks(file: string, text: string, root: string, readText: (file: string) => string = (f) => readFileSync(f, 'utf8')): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const { target, line } of linkTargets(text)) {
    if (EXTERNAL.test(target)) continue;
    const [rawPath = '', anchor] = target.split('#', 2);
    const linked = rawPath ? path.resolve(path.dirname(file), decodeURIComponent(rawPath)) : file;
    const fail = (reason: string) => broken.push({ file: path.relative(root, file), line, target, reason });
    if (path.relative(root, linked).startsWith('..')) {
      fail('outside the repository');
      continue;
    }
    if (rawPath && !existsSync(linked)) {
      fail('no such file');
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (!/\.md$/i.test(linked) || statSync(linked).isDirectory()) {
      fail('anchor into a file that is not markdown');
      continue;
    }
    const markdown = linked === file ? text : readText(linked);
    if (!headingAnchors(markdown).has(decodeURIComponent(anchor).toLowerCase())) fail(`no heading #${anchor}`);
  }
  return broken;
}

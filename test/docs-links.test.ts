import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brokenLinks, headingAnchors, headingSlug } from './support/markdown-links.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** README.md and every page under docs/. */
function documentationFiles(): string[] {
  const docs = path.join(ROOT, 'docs');
  return [path.join(ROOT, 'README.md'), ...readdirSync(docs).filter((f) => f.endsWith('.md')).map((f) => path.join(docs, f))];
}

describe('documentation links', () => {
  it('every relative link and #anchor of README.md and docs/*.md resolves', () => {
    const files = documentationFiles();
    expect(files.length).toBeGreaterThan(5);
    const broken = files.flatMap((file) => brokenLinks(file, readFileSync(file, 'utf8'), ROOT));
    expect(broken).toEqual([]);
  });

  it('every page of docs/ is linked from the README', () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const unlinked = documentationFiles()
      .slice(1)
      .map((file) => `docs/${path.basename(file)}`)
      .filter((page) => !readme.includes(`](${page}`));
    expect(unlinked).toEqual([]);
  });

  it('keeps the README a front door of at most 300 lines', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe('the link checker', () => {
  it('names anchors as GitHub does', () => {
    expect(headingSlug('Choices beside DESIGN.md')).toBe('choices-beside-designmd');
    expect(headingSlug('Vendor profiles: reviews teach the next document')).toBe('vendor-profiles-reviews-teach-the-next-document');
    expect(headingSlug('`npm run bench:api` & peers')).toBe('npm-run-benchapi--peers');
    expect(headingSlug('A [linked](x.md) heading')).toBe('a-linked-heading');
    expect([...headingAnchors('# Setup\n## Setup\n```\n# not a heading\n```\n## Setup')]).toEqual(['setup', 'setup-1', 'setup-2']);
  });

  it('finds a missing file, a missing anchor and a link out of the repository, and ignores code and URLs', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'links-'));
    writeFileSync(path.join(root, 'other.md'), '# Other page\n## Its part\n');
    const page = path.join(root, 'page.md');
    const text = [
      '# Page',
      'Good: [other](other.md), [its part](other.md#its-part), [here](#page), [site](https://example.com/x.md#y).',
      'Broken: [gone](missing.md), [no part](other.md#nowhere), [no anchor here](#elsewhere), [out](../outside.md).',
      '`[in code](missing.md)`',
      '```',
      '[in a block](missing.md)',
      '```',
      '[ref]: missing-too.md',
    ].join('\n');
    writeFileSync(page, text);
    expect(brokenLinks(page, text, root).map((b) => [b.line, b.target, b.reason])).toEqual([
      [3, 'missing.md', 'no such file'],
      [3, 'other.md#nowhere', 'no heading #nowhere'],
      [3, '#elsewhere', 'no heading #elsewhere'],
      [3, '../outside.md', 'outside the repository'],
      [8, 'missing-too.md', 'no such file'],
    ]);
  });
});

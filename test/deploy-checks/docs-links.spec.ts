// The docs stand alone: every relative link in the README, docs/ and bench/ resolves to a file
// of the repository (and to a heading of it, when it names one), and no doc sends its reader to
// a file the repository does not have.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, rootPath } from './repo';

function markdownFiles(): string[] {
  const files = ['README.md'];
  for (const dir of ['docs', 'bench']) {
    for (const name of fs.readdirSync(rootPath(dir), { recursive: true }) as string[]) {
      if (name.endsWith('.md')) files.push(path.join(dir, name));
    }
  }
  return files.sort();
}

/** The text outside fenced code blocks, where links and mentions are prose. */
const prose = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's anchors of a file's headings (lower case, punctuation dropped, spaces as dashes, repeats numbered). */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const match of prose(fs.readFileSync(rootPath(file), 'utf8')).matchAll(/^#{1,6} +(.+?) *$/gm)) {
    const slug = match[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(slug) ?? 0;
    anchors.add(count ? `${slug}-${count}` : slug);
    seen.set(slug, count + 1);
  }
  return anchors;
}

/** Each `[text](target)` link of a file that is not a URL. */
function relativeLinks(file: string): string[] {
  const text = prose(fs.readFileSync(rootPath(file), 'utf8'));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/i.test(target));
}

const files = markdownFiles();

describe('the docs', () => {
  it.each(files)('%s: every relative link resolves inside the repository', (file) => {
    const broken: string[] = [];
    for (const link of relativeLinks(file)) {
      const [target, anchor] = link.split('#') as [string, string | undefined];
      const resolved = target ? path.resolve(path.dirname(rootPath(file)), decodeURI(target)) : rootPath(file);
      if (!resolved.startsWith(ROOT + path.sep)) broken.push(`${link}: outside the repository`);
      else if (!fs.existsSync(resolved)) broken.push(`${link}: no such file`);
      else if (anchor && resolved.endsWith('.md') && !anchorsOf(path.relative(ROOT, resolved)).has(anchor)) broken.push(`${link}: no such heading`);
    }
    expect(broken).toEqual([]);
  });

  it.each(files)('%s: names no file outside the repository', (file) => {
    const text = fs.readFileSync(rootPath(file), 'utf8');
    // An API.md or a shared/ notes folder belonged to the project's planning, never to the repository.
    const outside = [...text.matchAll(/(?<![\w/.-])(API\.md|shared\/[\w./-]+)/g)].map((m) => m[1]);
    expect(outside).toEqual([]);
  });

  it('lists the files it checks, the README and the decisions among them', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', path.join('docs', 'decisions', 'README.md'), 'bench/HISTORY.md']));
  });
});

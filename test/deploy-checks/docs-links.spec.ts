// The docs stand alone: every relative link in the README, docs/ and bench/ resolves to a file
// of the repository (and to a heading of it, when it names one), and no doc sends its reader to
// a file the repository does not have.
import { execFileSync } from 'node:child_process';
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

/** A path git ignores (build output, an operator's own secrets): named by the docs, absent from a clone. */
function ignoredByGit(relative: string): boolean {
  // A directory's pattern (`secrets/`) matches its name only with the slash.
  return [relative, `${relative}/`].some((name) => {
    try {
      execFileSync('git', ['check-ignore', '-q', '--no-index', name], { cwd: ROOT });
      return true;
    } catch {
      return false;
    }
  });
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

  // The history of benchmark runs names files as they were then; every other doc names the files of today.
  it.each(files.filter((file) => file !== 'bench/HISTORY.md'))('%s: every path of the repository it names exists', (file) => {
    const text = fs.readFileSync(rootPath(file), 'utf8');
    const missing = new Set<string>();
    for (const match of text.matchAll(/(?<![\w/.@-])((?:apps|libs|scripts|test|deploy|bench|docs|patches)\/[\w./+-]*)(.?)/g)) {
      const named = match[1].replace(/[.,-]+$/, '');
      // `apps/<app>/…`, `test/e2e/console*.e2e-spec.ts`: a pattern, not a path.
      if (/^[<*…{]$/.test(match[2]) || named.endsWith('/-')) continue;
      if (!fs.existsSync(rootPath(named)) && !ignoredByGit(named)) missing.add(named);
    }
    expect([...missing]).toEqual([]);
  });

  it('lists the files it checks, the README and the decisions among them', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md', path.join('docs', 'decisions', 'README.md'), 'bench/HISTORY.md']));
  });
});

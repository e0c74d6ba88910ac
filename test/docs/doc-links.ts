// The relative links of the documentation: each must name a file (or folder) that exists and,
// with a `#anchor`, a heading of that file, as GitHub makes anchors of headings.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** README.md and every Markdown file under docs/, relative to `root`. */
export function markdownFiles(root: string): string[] {
  const found: string[] = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const relative = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(relative);
      else if (entry.name.endsWith('.md')) found.push(relative);
    }
  };
  if (existsSync(path.join(root, 'docs'))) walk('docs');
  return found.sort();
}

/** Markdown without its fenced blocks and inline code, where a link is not a link. */
function prose(text: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      lines.push('');
      continue;
    }
    lines.push(fence === undefined ? line.replaceAll(/(`+)[^`]*?\1/g, '') : '');
  }
  return lines;
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading
    .replaceAll(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replaceAll('`', '')
    .trim()
    .toLowerCase()
    .replaceAll(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replaceAll(' ', '-');
}

/** The anchors a Markdown text has: one per heading, repeats numbered as GitHub does. */
export function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | undefined;
  for (const line of text.split('\n')) {
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      continue;
    }
    if (fence !== undefined) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

const INLINE = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const REFERENCE = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/;

/** Each link of a file that does not resolve, as `file:line: target (why)`. */
export function brokenLinks(root: string, file: string, text: string): string[] {
  const broken: string[] = [];
  prose(text).forEach((line, index) => {
    const targets = [...line.matchAll(INLINE)].map((match) => match[1] ?? '');
    const reference = REFERENCE.exec(line)?.[1];
    if (reference) targets.push(reference);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: — not ours to check
      const problem = whyBroken(root, file, target);
      if (problem) broken.push(`${file}:${index + 1}: ${target} (${problem})`);
    }
  });
  return broken;
}

function whyBroken(root: string, file: string, target: string): string | undefined {
  const hash = target.indexOf('#');
  const pathPart = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = pathPart === '' ? path.join(root, file) : path.resolve(root, path.dirname(file), pathPart);
  if (!resolved.startsWith(root)) return 'outside the repository';
  if (!existsSync(resolved)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (statSync(resolved).isDirectory() || !resolved.endsWith('.md'))
    return 'an anchor into a file that is not Markdown';
  if (!anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)) return `no heading makes the anchor #${anchor}`;
  return undefined;
}

// The TypeScript blocks of the README and the guides, checked as a reader would use them:
// each is a module importing `agent-teams` (resolved to the sources by tsconfig's paths and
// vitest's aliases), type-checked against the package, and the ones marked `runnable` run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** How a block is meant: type-checked alone, also run on the testing kit, or a fragment (neither). */
type BlockMark = 'checked' | 'runnable' | 'fragment';

export interface DocBlock {
  /** The Markdown file, relative to the repository. */
  readonly file: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  readonly mark: BlockMark;
  readonly code: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/;
const TS_LANGUAGES = new Set(['ts', 'typescript']);

/** The fenced TypeScript blocks of a Markdown text; any other language is left alone. */
export function extractBlocks(file: string, text: string): DocBlock[] {
  const blocks: DocBlock[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const open = FENCE.exec(lines[index] ?? '');
    if (!open) continue;
    const [, , fence = '```', language = '', rest = ''] = open;
    const body: string[] = [];
    let end = index + 1;
    for (; end < lines.length; end++) {
      const line = lines[end] ?? '';
      if (line.trim().startsWith(fence) && line.trim().replaceAll(fence[0] ?? '`', '') === '') break;
      body.push(line);
    }
    if (TS_LANGUAGES.has(language.toLowerCase())) {
      const words = rest.split(/\s+/).filter(Boolean);
      const unknown = words.filter((word) => word !== 'runnable' && word !== 'fragment');
      if (unknown.length > 0 || words.length > 1) {
        throw new Error(
          `${file}:${index + 1}: a ts block is marked "${rest}"; the marks are "runnable" and "fragment", one at most`,
        );
      }
      const mark: BlockMark =
        words[0] === 'runnable' ? 'runnable' : words[0] === 'fragment' ? 'fragment' : 'checked';
      blocks.push({ file, line: index + 1, mark, code: body.join('\n') });
    }
    index = end;
  }
  return blocks;
}

/** README.md and docs/guide/*.md, as the doc test reads them. */
export function documentedFiles(): string[] {
  const guides = path.join(ROOT, 'docs/guide');
  const names = ts.sys.readDirectory(guides, ['.md'], undefined, undefined, 1);
  return ['README.md', ...names.map((name) => path.relative(ROOT, name)).sort()];
}

export function blocksOf(files: readonly string[]): DocBlock[] {
  return files.flatMap((file) => extractBlocks(file, readFileSync(path.join(ROOT, file), 'utf8')));
}

/** Where a block is written to be compiled and imported: inside the repository, so imports resolve. */
const OUT = path.join(ROOT, 'test/.generated/doc-blocks');

function moduleName(block: DocBlock, index: number): string {
  return `${block.file.replaceAll(/[^A-Za-z0-9]+/g, '-')}-L${block.line}-${index}.ts`;
}

export interface WrittenBlock {
  readonly block: DocBlock;
  readonly path: string;
}

/** Writes each block as a module of its own (`export {}` makes even an import-less block one). */
export function writeBlocks(blocks: readonly DocBlock[], folder = 'default'): WrittenBlock[] {
  const dir = path.join(OUT, folder);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return blocks.map((block, index) => {
    const file = path.join(dir, moduleName(block, index));
    writeFileSync(file, `${block.code}\nexport {};\n`);
    return { block, path: file };
  });
}

export function removeBlocks(folder = 'default'): void {
  rmSync(path.join(OUT, folder), { recursive: true, force: true });
}

function compilerOptions(): ts.CompilerOptions {
  const config = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  return { ...parsed.options, noEmit: true };
}

/** Type errors of the blocks, each as `file:line: message` at the Markdown line it comes from. */
export function typeErrors(written: readonly WrittenBlock[]): string[] {
  const program = ts.createProgram(
    written.map((each) => each.path),
    compilerOptions(),
  );
  const byPath = new Map(written.map((each) => [path.resolve(each.path), each.block]));
  const errors: string[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const source = diagnostic.file;
    const block = source ? byPath.get(path.resolve(source.fileName)) : undefined;
    if (!source || !block) {
      errors.push(`(outside the blocks) ${source?.fileName ?? ''}: ${message}`);
      continue;
    }
    const { line } = source.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    errors.push(`${block.file}:${block.line + 1 + line}: ${message}`);
  }
  return errors;
}

/** Runs a block as a module; it rejects with the block's place when the block throws. */
export async function runBlock(written: WrittenBlock): Promise<void> {
  try {
    await import(pathToFileURL(written.path).href);
  } catch (error) {
    const { block } = written;
    throw new Error(`${block.file}:${block.line}: the runnable block threw: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

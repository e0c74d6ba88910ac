import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// The DESIGN.md snippet is kept verbatim in examples/building-blocks.ts. This test runs
// it as written, capturing the value of every line that carries a `// result` comment,
// and checks each comment against what the line produced.

const source = fileURLToPath(new URL('../../examples/building-blocks.ts', import.meta.url));
const generated = fileURLToPath(new URL('../.generated/building-blocks.instrumented.ts', import.meta.url));

type Check = (value: unknown) => void;
const checks: Record<string, Check> = {
  'task-1': (value) =>
    expect(value).toMatchObject({ id: 'task-1', title: 'Research tides', status: 'pending' }),
  'task-1, in progress': (value) =>
    expect(value).toMatchObject({ id: 'task-1', status: 'in_progress', owner: 'researcher' }),
  '[task-2]': (value) => expect((value as { id: string }[]).map((task) => task.id)).toEqual(['task-2']),
  "[{ from: 'researcher', fromAgent: true, content: 'Notes are in task-1', ... }]": (value) => {
    expect(value).toHaveLength(1);
    expect((value as unknown[])[0]).toMatchObject({
      from: 'researcher',
      fromAgent: true,
      content: 'Notes are in task-1',
    });
  },
};

test('the building-blocks snippet runs as written and every commented result holds', async () => {
  const commented = /^(?<head>(?:const \w+ = )?)(?<expression>.+?);\s+\/\/ (?<comment>.+)$/;
  const seen: string[] = [];
  const lines = readFileSync(source, 'utf8')
    .split('\n')
    .map((line, index) => {
      const match = commented.exec(line);
      if (!match?.groups) return line;
      const { head = '', expression = '', comment = '' } = match.groups;
      seen.push(comment);
      return `${head}(globalThis as any).__record(${index}, ${JSON.stringify(comment)}, ${expression});`;
    });
  expect([...seen].sort()).toEqual(Object.keys(checks).sort());

  const recorded: { comment: string; value: unknown }[] = [];
  (globalThis as Record<string, unknown>).__record = (_line: number, comment: string, value: unknown) => {
    recorded.push({ comment, value });
    return value;
  };
  mkdirSync(new URL('../.generated/', import.meta.url), { recursive: true });
  writeFileSync(generated, lines.join('\n'));
  await import(/* @vite-ignore */ generated);

  // Every commented line ran, in the file's order.
  expect(recorded.map((entry) => entry.comment)).toEqual(seen);
  for (const { comment, value } of recorded) checks[comment]?.(value);
});

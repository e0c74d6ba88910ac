import type { ToolSet } from 'ai';

/** Runs one tool of a set as the model loop would, answering what the tool answers. */
export async function runTool(
  tools: ToolSet,
  name: string,
  input: unknown = {},
): Promise<Record<string, unknown>> {
  const execute = tools[name]?.execute;
  if (!execute) throw new Error(`No tool ${name}`);
  return (await execute(input as never, { toolCallId: 'test', messages: [] })) as Record<string, unknown>;
}

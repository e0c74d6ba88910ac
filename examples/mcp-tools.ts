// A member with the tools of an MCP server. The AI SDK's MCP client (`@ai-sdk/mcp`, which
// your project installs: npm install @ai-sdk/mcp) starts the server as a child process and
// talks to it over stdio; its tools go to the member like any AI SDK tools; and the client
// is closed when the run ends, however it ends (try/finally), which stops the server.
// With a key set, on any MCP server that runs over stdio:
//   npx tsx examples/mcp-tools.ts "When is high water in Lisbon?" -- node my-tide-server.js
import { pathToFileURL } from 'node:url';
import { createMCPClient } from '@ai-sdk/mcp';
import { type StdioConfig, Experimental_StdioMCPTransport as StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { Agent, type ModelSpec, Team, type TeamRunResult } from 'agent-teams';

export interface McpRun {
  readonly input: string;
  /** How to start the MCP server: its command, arguments, and `env`/`cwd` if it needs them. */
  readonly server: StdioConfig;
  readonly model?: ModelSpec;
}

export async function runWithMcpTools({
  input,
  server,
  model = 'openai/gpt-5.5',
}: McpRun): Promise<TeamRunResult> {
  const client = await createMCPClient({ transport: new StdioMCPTransport(server) });
  try {
    // Every tool the server lists, with its own description and input schema.
    const tools = await client.tools();
    const team = new Team({
      name: 'harbour',
      lead: new Agent({
        name: 'harbourmaster',
        model,
        instructions: 'Give the question to the pilot as one task, then answer from its result.',
      }),
      members: [
        new Agent({
          name: 'pilot',
          model,
          description: `Has the tools of the ${client.serverInfo.name} MCP server: ${Object.keys(tools).join(', ')}`,
          instructions: 'Answer your task with your tools, and give the answer as the task result.',
          tools,
        }),
      ],
    });
    return await team.run({ input });
  } finally {
    // Ends the server's process; a run that failed or was aborted leaves none behind either.
    await client.close();
  }
}

// Run as a script: the question, then `--` and the command that starts the MCP server.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [input, separator, command, ...args] = process.argv.slice(2);
  if (!input || separator !== '--' || !command) {
    console.error('Usage: npx tsx examples/mcp-tools.ts "<question>" -- <mcp server command> [args...]');
    process.exit(2);
  }
  const result = await runWithMcpTools({
    input,
    server: { command, args },
    model: process.env.AGENT_TEAMS_MODEL,
  });
  console.log(result.output);
}

import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CliError } from './cli-error.js';
import { shellWord } from './resume-hint.js';

/** Where the starter team is written, relative to the folder init was run in. */
const starterTeam = (
  run: string,
) => `// A starter team made by \`agent-teams init\`: a lead plans the work as tasks on a shared
// list, two members work on them at once and talk by messages, and the lead writes the answer.
// Run it: ${run} --input "…"
import { Agent, Team } from 'agent-teams';

// Every agent here runs on this model (it needs OPENAI_API_KEY). Another provider is another string:
//   'anthropic/claude-sonnet-4-5'   ANTHROPIC_API_KEY
//   'ollama/llama3.2'               a local Ollama at OLLAMA_BASE_URL (default http://127.0.0.1:11434)
//   'openai-compatible/<id>'        any chat-completions server at OPENAI_COMPATIBLE_BASE_URL
// or, for one run and without editing: ${run} --model ollama/llama3.2 --input "…"
// No key at all: the testing kit's scripted model answers from a script, offline. Add
// \`import { scriptedModel } from 'agent-teams/testing';\` and put this in place of the line below:
//   const model = scriptedModel((call) =>
//     call.reason === 'start' && call.step === 0
//       ? { toolCalls: [{ toolName: 'create_task', input: { title: 'Find three facts', assignee: 'researcher' } }] }
//       : \`\${call.agent}: done (\${call.reason}).\`,
//   );
const model = 'openai/gpt-5.5';

const lead = new Agent({
  name: 'lead',
  model,
  instructions:
    'Plan the request as a few tasks for your team (create_task; dependsOn when one needs another), ' +
    'then write the final answer from their results.',
  maxIterations: 12,
});
const researcher = new Agent({
  name: 'researcher',
  model,
  description: 'Finds facts and sources',
  instructions: 'Research your task. Answer with the facts you found and where they come from.',
});
const writer = new Agent({
  name: 'writer',
  model,
  description: 'Writes clear prose',
  instructions: 'Write what your task asks for, clearly and briefly, from the results it depends on.',
});

// The command runs the teams a file exports as \`teams\`.
export const teams = {
  'my-team': new Team({ name: 'my-team', lead, members: [researcher, writer], maxConcurrentMembers: 2 }),
};
`;

const starterReadme = (run: string, file: string) => `# my-team

A team of LLM agents made by \`agent-teams init\`: \`${file}\` defines it (a lead and two
members on \`openai/gpt-5.5\`). Run it from the folder \`init\` was run in:

\`\`\`sh
export OPENAI_API_KEY=sk-...
${run} --input "Write a short article about tides"
${run} --model ollama/llama3.2 --input "…"   # or any model, for one run
\`\`\`

To switch the team to another provider for good, or to the scripted model (no key), see the
comment above \`const model\` in the file. Then look at what it did:
\`npx agent-teams tasks my-team\`, \`npx agent-teams logs my-team\`,
\`npx agent-teams inbox my-team researcher\`. Ctrl-C stops a run and prints how to resume it.
\`npm install agent-teams\` in your project gives your editor the types.

## Without an API key

The testing kit's fake model server answers the model APIs on your machine, from a script:
here the lead gives the researcher one task and every other turn answers a line. Start it
(it prints the address it listens on, and runs until Ctrl-C):

\`\`\`sh
npm install agent-teams
node --input-type=module -e "
import { fakeOpenAIServer } from 'agent-teams/testing';
const server = await fakeOpenAIServer((call) =>
  call.agent === 'lead' && call.reason === 'start' && call.step === 0
    ? { toolCalls: [{ toolName: 'create_task', input: { title: 'Find three facts', assignee: 'researcher' } }] }
    : call.agent + ': done (' + call.reason + ').');
console.log('export OPENAI_COMPATIBLE_BASE_URL=' + server.url);
"
\`\`\`

In another terminal, run the line it printed, then the team on it:

\`\`\`sh
export OPENAI_COMPATIBLE_BASE_URL=http://127.0.0.1:<port>/v1
${run} --model openai-compatible/fake --input "Write a short article about tides"
\`\`\`
`;

/**
 * Writes a starter team file and a README on how to run it into `dir`, and answers what to
 * tell the person. Writes nothing if either file is already there.
 */
export function initTeam(dir: string): string {
  const files = { team: path.join(dir, 'team.ts'), readme: path.join(dir, 'README.md') };
  const run = `npx agent-teams run ${shellWord(files.team)}`;
  const contents: [string, string][] = [
    [files.team, starterTeam(run)],
    [files.readme, starterReadme(run, files.team)],
  ];
  // Both are checked before either is written, so init writes both files or neither; 'wx'
  // still refuses a file that appears in between rather than overwrite it.
  const taken = contents.map(([file]) => file).find((file) => existsSync(file));
  if (taken) throw new CliError(`${taken} already exists: init overwrites nothing (give it another folder)`);
  try {
    mkdirSync(dir, { recursive: true });
    for (const [file, text] of contents) writeFileSync(file, text, { flag: 'wx' });
  } catch (error) {
    throw new CliError(`cannot write the starter team in ${dir}: ${(error as Error).message}`);
  }
  return [
    `Wrote ${files.team} (a lead and two members on openai/gpt-5.5) and ${files.readme} (how to run it).`,
    'Run it:',
    '  export OPENAI_API_KEY=sk-...     (or see the file for other providers and the scripted model)',
    `  ${run} --input "Write a short article about tides"`,
    `No key: ${files.readme} shows the same run on the testing kit's fake model server.`,
    '',
  ].join('\n');
}

// Coordination tokens of one member turn: what the team adds to the system prompt, the
// turn's briefing framing a typical task and a short goal, and the JSON schemas of the member's tools, in
// o200k tokens (gpt-4o and later). Run: npm run bench:tokens
import { asSchema } from 'ai';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Agent, createTeamTools, MemoryStore, teamToolsFor } from '../src/index.js';
import { memberSystem, taskBriefing, teamGoal } from '../src/prompt/briefings.js';
import { scriptedModel } from '../src/testing.js';

const model = scriptedModel([]);
const agent = (name: string) => new Agent({ name, model, instructions: '' });
const picture = {
  team: 'newsroom',
  lead: agent('editor'),
  members: ['researcher', 'writer', 'checker'].map(agent),
};
const member = picture.members[1] as Agent;
const now = new Date().toISOString();
const task = {
  id: 'task-3',
  title: 'Write the article',
  description: 'Three short paragraphs for a general reader, from the facts and the example.',
  status: 'in_progress' as const,
  owner: 'writer',
  assignee: 'writer',
  dependsOn: [],
  result: null,
  note: null,
  closed: false,
  createdBy: 'editor',
  createdAt: now,
  updatedAt: now,
};

const tools = teamToolsFor(
  createTeamTools({ store: new MemoryStore(), team: 'newsroom' }, 'writer'),
  'member',
);
const schemas = await Promise.all(
  Object.entries(tools).map(async ([name, tool]) => ({
    type: 'function',
    name,
    description: tool.description,
    inputSchema: await asSchema(tool.inputSchema).jsonSchema,
  })),
);

const parts = {
  'system prompt (team part)': memberSystem(picture, member).trim(),
  // The goal is the run's request: a short one, as the README's example gives.
  'turn briefing (the goal, a task, no inputs or messages)': taskBriefing(
    task,
    [],
    [],
    24_000,
    teamGoal('Write a short article about tides', 24_000, 'member'),
  ).text,
  [`tool schemas (${schemas.length} tools)`]: JSON.stringify(schemas),
};
let total = 0;
console.log('| part | o200k tokens |');
console.log('| --- | ---: |');
for (const [part, text] of Object.entries(parts)) {
  const count = encode(text).length;
  total += count;
  console.log(`| ${part} | ${count} |`);
}
console.log(`| **total per member turn** | **${total}** |`);

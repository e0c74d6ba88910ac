// Prompt sizes as a list grows: the largest prompt (system prompt and briefing together) of
// each kind of turn, and the largest list_tasks answer, in o200k tokens, over scripted runs
// of 10, 100 and 1,000 pre-seeded tasks whose results are 1,000 characters. Also the cost of
// counting: tokenising a 24,000-token prompt. Run: npm run bench:prompts
import { performance } from 'node:perf_hooks';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { Agent, Team } from '../src/index.js';
import { type ScriptedCall, scriptedModel } from '../src/testing.js';

const tokens = (text: string) => encode(text, { disallowedSpecial: new Set() }).length;
const WORDS = 'tide moon sea pull gravity coast shore wave basin estuary current ebb flood spring neap'.split(
  ' ',
);

function result(taskId: string): string {
  let text = `MARK-${taskId.slice('task-'.length)}:`;
  for (let at = Number(taskId.slice(5)); text.length < 1_000; at = (at * 7 + 3) % 997) {
    text += ` ${WORDS[at % WORDS.length]}${at}`;
  }
  return text.slice(0, 1_000);
}

function script(call: ScriptedCall) {
  if (call.agent === 'lead') {
    if (call.reason === 'synthesis') return [...new Set(call.prompt.match(/MARK-\d+/g) ?? [])].join(' ');
    return 'The list is ready.';
  }
  if (call.turn === 1 && call.step === 0) return { toolCalls: [{ toolName: 'list_tasks', input: {} }] };
  return result(call.taskId ?? '');
}

async function measure(count: number, stalled: boolean) {
  const model = scriptedModel(script);
  const agent = (name: string) => new Agent({ name, model, instructions: `You are ${name}.` });
  const team = new Team({
    name: 'survey',
    lead: agent('lead'),
    members: ['a', 'b', 'c'].map(agent),
    tasks: Array.from({ length: count }, (_, at) => ({ title: `Part ${at + 1} of the survey` })),
    maxTasks: count,
    maxTurnsPerMember: count,
    selfClaim: !stalled,
  });
  const run = await team.run({ input: 'Summarise the survey.' });
  const largest: Record<string, number> = {};
  let parts = 0;
  for (const call of model.calls) {
    const kind = call.reason ?? 'other';
    if (call.reason === 'synthesis') parts++;
    largest[kind] = Math.max(largest[kind] ?? 0, tokens(call.system) + tokens(call.prompt));
    for (const { toolName, output } of call.toolResults) {
      largest[toolName] = Math.max(largest[toolName] ?? 0, tokens(JSON.stringify(output)));
    }
  }
  const marks = new Set(run.output.match(/MARK-\d+/g) ?? []).size;
  return { largest, parts, marks };
}

console.log(
  '| tasks | start | stalled | list_tasks answer | synthesis (largest) | synthesis turns | results in the answer |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
for (const count of [10, 100, 1_000]) {
  const done = await measure(count, false);
  const stuck = await measure(count, true);
  const { largest } = done;
  console.log(
    `| ${count} | ${largest.start} | ${stuck.largest.stalled} | ${largest.list_tasks} | ${largest.synthesis} | ${done.parts} | ${done.marks} |`,
  );
}

// Counting cost: a 24,000-token prompt of varied text, tokenised fresh each time.
const words = Array.from(
  { length: 200_000 },
  (_, at) => `${WORDS[(at * 7) % WORDS.length]}${(at * 7919) % 100_003}`,
);
let prompt = words.join(' ');
prompt = prompt.slice(0, Math.floor((prompt.length * 24_000) / tokens(prompt)));
const times: number[] = [];
for (let round = 0; round < 5; round++) {
  const varied = prompt.replace(/\d+/g, (digits) => String((Number(digits) + round * 13) % 100_003));
  const started = performance.now();
  tokens(varied);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
console.log(`\ntokenising a ${tokens(prompt)}-token prompt: median ${times[2]?.toFixed(1)} ms over 5`);

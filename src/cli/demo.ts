import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent } from '../agent/agent.js';
import type { TeamStore } from '../store/team-store.js';
import { Team } from '../team/team.js';
import { scriptedModel } from '../testing/scripted-model.js';
import { newsroomLatency, newsroomScript } from './newsroom-script.js';
import { DEFAULT_STORE, shellWord } from './resume-hint.js';

export const DEMO_INPUT = 'Write a short article about tides';

/** The ms between words of the demo's streamed replies (`pace` of the scripted model). */
const DEMO_PACE_MS = 25;

/** The newsroom on the testing kit's scripted model: no key, realistic pacing. */
export function demoTeam(store: TeamStore, fast: boolean): Team {
  const model = scriptedModel(newsroomScript(), {
    latencyMs: fast ? 0 : newsroomLatency,
    // The live view shows the text coming a word at a time, as a real model writes it.
    pace: fast ? 0 : DEMO_PACE_MS,
    modelId: 'scripted-newsroom',
  });
  const editor = new Agent({
    name: 'editor',
    model,
    instructions: 'Plan the article as tasks for your team and write the final version.',
    maxIterations: 12,
  });
  const researcher = new Agent({
    name: 'researcher',
    model,
    description: 'Finds facts and sources',
    instructions: 'Research.',
    metadata: { expertise: ['sources'] },
  });
  const writer = new Agent({
    name: 'writer',
    model,
    description: 'Writes clear prose',
    instructions: 'Write.',
  });
  const checker = new Agent({
    name: 'checker',
    model,
    description: 'Checks facts',
    instructions: 'Check facts.',
  });
  return new Team({
    name: 'newsroom-demo',
    lead: editor,
    members: [researcher, writer, checker],
    maxTurnsPerMember: 6,
    maxConcurrentMembers: 2,
    store,
  });
}

export const DEMO_INTRO = `agent-teams demo: the newsroom (an editor, a researcher, a writer and a checker)
on a SCRIPTED model: replies come from a script with simulated latency, no API key needed.
It shows the whole mechanism: the editor plans tasks with dependencies, two members work at
once, the writer asks the researcher a question by message, and the editor writes the answer.
`;

// The examples ship in the package, so the hint names the copy beside this very command:
// node_modules/agent-teams/examples/newsroom.ts in a user's project, examples/newsroom.ts
// in a clone of the repository. (This file is src/cli/demo.ts or dist/cli/demo.js.)
const newsroomExample = fileURLToPath(new URL('../../examples/newsroom.ts', import.meta.url));

/**
 * What the demo says at its end: how to run the same team on a real model, from `cwd`, and
 * how to look at the store it left (`store`, unless it is the default).
 */
export function demoOutro(cwd: string, store: string): string {
  const inStore = store === DEFAULT_STORE ? '' : ` --store ${shellWord(store)}`;
  const relative = path.relative(cwd, newsroomExample);
  const example = shellWord(
    relative.startsWith('..') || path.isAbsolute(relative) ? newsroomExample : relative,
  );
  return `
That was a scripted model. To run the same team on a real one, with its team file (it ships in
the package; \`npx agent-teams init\` writes a starter of your own):
  export OPENAI_API_KEY=sk-...     (or ANTHROPIC_API_KEY, OLLAMA_BASE_URL, OPENAI_COMPATIBLE_BASE_URL)
  npx agent-teams run ${example} --input "${DEMO_INPUT}"
  npx agent-teams run ${example} --model ollama/llama3.2 --input "..."
See what it left in the store: npx agent-teams teams${inStore} · tasks newsroom-demo · logs newsroom-demo
`;
}

// The newsroom: an editor plans an article as tasks for a researcher, a writer
// and a checker, and writes the final version. With OPENAI_API_KEY set:
//   node --import tsx examples/newsroom.ts
// or, through the command: npx agent-teams run examples/newsroom.ts --input "..."
import { pathToFileURL } from 'node:url';
import { Agent, Team } from 'agent-teams';

const model = 'openai/gpt-5.5';

const editor = new Agent({
  name: 'editor',
  model: 'openai/gpt-5.5',
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

const newsroom = new Team({
  name: 'newsroom',
  lead: editor,
  members: [researcher, writer, checker],
  maxTurnsPerMember: 6,
  maxConcurrentMembers: 2,
});

export const teams = { newsroom };

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  newsroom.on('team:task-claimed', (event) => {
    const { task, member } = event.data;
    console.log(`${member} works on ${task.id}: ${task.title}`);
  });
  const result = await newsroom.run({ input: 'Write a short article about tides' });
  console.log(result.output);
}

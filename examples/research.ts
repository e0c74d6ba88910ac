// A research team: the lead drafts a long list of questions and three researchers take them
// one after another by themselves (self-claim), as many at once as there are researchers.
// With a key set:
//   npx agent-teams run examples/research.ts --input "What should a first-time visitor to Lisbon know?"
import { Agent, Team } from 'agent-teams';

const model = process.env.AGENT_TEAMS_MODEL ?? 'openai/gpt-5.5';

const lead = new Agent({
  name: 'lead',
  model,
  instructions:
    'Break the request into 8 to 12 small, independent research questions, one create_task each, without ' +
    'assignees: the researchers take them themselves. Then write a short report from their answers.',
  maxIterations: 16,
});
const researchers = ['ana', 'ben', 'chloe'].map(
  (name) =>
    new Agent({
      name,
      model,
      description: 'Answers one research question at a time, briefly, with a source',
      instructions: 'Answer your question in three sentences or fewer and name one source.',
    }),
);

export const teams = {
  research: new Team({ name: 'research', lead, members: researchers, maxConcurrentMembers: 3, maxTasks: 20 }),
};

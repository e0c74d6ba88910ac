// A debate: two members pursue competing explanations and message each other to try to
// disprove the other's; the moderator weighs what survived. With a key set:
//   npx agent-teams run examples/debate.ts --input "Why does the app disconnect after one message?"
import { Agent, Team } from 'agent-teams';

const model = process.env.AGENT_TEAMS_MODEL ?? 'openai/gpt-5.5';

const moderator = new Agent({
  name: 'moderator',
  model,
  instructions:
    'Frame the question as two competing hypotheses. Create one task per debater, each assigned, telling it to ' +
    'argue its hypothesis and to message the other debater with evidence against theirs. Weigh what survived.',
});
const proposer = new Agent({
  name: 'proposer',
  model,
  description: 'Argues the first hypothesis and attacks the second',
  instructions:
    'Argue your hypothesis with evidence. Use send_message to the other debater to challenge theirs; answer their ' +
    'challenges honestly, and concede what you cannot defend. Your task result is your final position.',
});
const challenger = new Agent({
  name: 'challenger',
  model,
  description: 'Argues the second hypothesis and attacks the first',
  instructions: proposer.instructions,
});

export const teams = {
  debate: new Team({
    name: 'debate',
    lead: moderator,
    members: [proposer, challenger],
    maxTurnsPerMember: 4,
  }),
};

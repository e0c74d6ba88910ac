// A team that forms itself: the editor starts with a fact-checker and a copy editor, and may
// start members from a catalog of three definitions as the work needs them (four members at
// most at once), give them tasks, and let them go once their part is done. The editor only
// coordinates (delegate mode): it has no tools to do the work itself. With a key set:
//   npx agent-teams run examples/spawned-team.ts --input "Write a short article about tides"
import { Agent, Team } from 'agent-teams';

const model = process.env.AGENT_TEAMS_MODEL ?? 'openai/gpt-5.5';

const editor = new Agent({
  name: 'editor',
  model,
  maxIterations: 16,
  instructions:
    'Start the members the request needs with spawn_member (from your definitions), give each a task, ' +
    'and retire_member one once its part is done; team_status shows where everyone is. ' +
    'Have the checker check the facts of the draft, then write the final version.',
});
const checker = new Agent({
  name: 'checker',
  model,
  description: 'Checks every fact of a text against its sources',
  instructions: 'Check each claim of the text you are given; list any you could not confirm.',
});
const copyeditor = new Agent({
  name: 'copyeditor',
  model,
  description: 'Tightens prose and fixes style',
  instructions: 'Edit the text you are given for clarity and length; keep its facts.',
});

export const teams = {
  newsdesk: new Team({
    name: 'newsdesk',
    lead: editor,
    members: [checker, copyeditor],
    catalog: {
      researcher: new Agent({
        name: 'researcher',
        model,
        description: 'Finds facts and their sources',
        instructions: 'Research the question of your task; give the facts with a source each.',
      }),
      writer: new Agent({
        name: 'writer',
        model,
        description: 'Writes clear prose for a general reader',
        instructions:
          'Write the piece your task asks for, in short paragraphs, from the results it builds on.',
      }),
      reviewer: new Agent({
        name: 'reviewer',
        model,
        description: 'Reviews a draft for structure and tone',
        instructions: 'Review the draft of your task: what to cut, what is missing, what is unclear.',
      }),
    },
    // A member of the editor's own instructions runs on this model.
    spawnModels: [model],
    maxMembers: 4,
    delegate: true,
  }),
};

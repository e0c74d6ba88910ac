import type { Script, ScriptedCall, ScriptedReply } from '../testing/scripted-call.js';

// The newsroom on a scripted model: what `agent-teams demo` runs. It plays every part a real
// model would (plan with dependencies, parallel work, a question by message, the final
// answer) so the whole mechanism shows with no API key.

const FACTS =
  'The Moon’s gravity pulls the ocean into two bulges, one facing the Moon and one opposite it. ' +
  'As Earth turns, most coasts pass through both bulges: two high tides about every 24 hours 50 minutes. ' +
  'When Sun and Moon line up (new and full moon) their pulls add up to spring tides; at right angles they ' +
  'give neap tides. Source: NOAA, “Tides and Water Levels”.';

const EXAMPLE =
  'In the Bay of Fundy, Canada, the water rises and falls by up to 16 metres twice a day, ' +
  'the largest tidal range on Earth, because the bay’s shape resonates with the tide.';

/** The task results the synthesis briefing lists, in order. */
function resultsIn(prompt: string): string[] {
  const section =
    prompt.split("Results of the team's tasks:\n\n")[1]?.split('\n\nWrite the final answer')[0] ?? '';
  return section.split(/\n\n(?=\[task-\d+\] )/).map((block) => block.slice(block.indexOf('\n') + 1));
}

function editor(call: ScriptedCall): ScriptedReply {
  if (call.reason === 'start' && call.step === 0) {
    return {
      toolCalls: [
        {
          toolName: 'create_task',
          input: {
            title: 'Collect the facts about tides',
            description: 'Why tides happen, how often, spring and neap tides; name a source.',
            assignee: 'researcher',
          },
        },
        {
          toolName: 'create_task',
          input: {
            title: 'Find one vivid real-world example',
            description: 'A place where tides are remarkable.',
          },
        },
        {
          toolName: 'create_task',
          input: {
            title: 'Write the article',
            description: 'Three short paragraphs for a general reader, from the facts and the example.',
            dependsOn: ['task-1', 'task-2'],
            assignee: 'writer',
          },
        },
        {
          toolName: 'create_task',
          input: { title: 'Check every fact in the draft', dependsOn: ['task-3'], assignee: 'checker' },
        },
      ],
    };
  }
  if (call.reason === 'start')
    return 'Planned four tasks: research and an example in parallel, then the draft, then a check.';
  if (call.reason === 'synthesis') {
    const [, , draft = '', check = ''] = resultsIn(call.prompt);
    return `${draft}\n\n(${check.split('.')[0]}.)`;
  }
  return 'Thanks, noted.';
}

function member(call: ScriptedCall): ScriptedReply {
  if (call.reason === 'message') {
    return call.agent === 'researcher'
      ? 'Yes: the Moon returns to the same place overhead every 24 h 50 min, so high tides come about 12 h 25 min apart.'
      : 'Noted.';
  }
  if (call.taskId === 'task-1') return FACTS;
  if (call.taskId === 'task-2') return EXAMPLE;
  if (call.taskId === 'task-3') {
    if (call.step === 0) {
      return {
        toolCalls: [
          {
            toolName: 'send_message',
            input: {
              to: 'researcher',
              content: 'Quick check: are high tides really about 12 h 25 min apart?',
            },
          },
        ],
      };
    }
    return (
      'Why the sea breathes. Twice a day, almost everywhere on Earth, the sea climbs the shore and slips back. ' +
      'The Moon’s gravity pulls the oceans into two bulges, and as the planet turns, each coast passes through ' +
      'both: high tides come about 12 hours 25 minutes apart.\n\n' +
      'When the Sun and Moon line up, at new and full moon, their pulls add up to spring tides; at right angles ' +
      `they make the gentler neap tides.\n\n${EXAMPLE}`
    );
  }
  if (call.taskId === 'task-4') {
    return 'Checked against NOAA: the two bulges, the 12 h 25 min rhythm, spring and neap tides and the Fundy range are right. No changes needed.';
  }
  return 'Done.';
}

/** The newsroom's script: the editor leads researcher, writer and checker. */
export function newsroomScript(): Script {
  return (call) => (call.agent === 'editor' ? editor(call) : member(call));
}

/** Model time like a hosted model's: a first reply to a task takes longest. */
export function newsroomLatency(call: ScriptedCall): number {
  const base = call.agent === 'editor' ? 700 : 500;
  return base + (call.reason === 'task' && call.step === 0 ? 900 : 200);
}

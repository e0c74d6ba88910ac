import type { TeamEvent } from '../../events/team-event-map.js';
import { agentOf, payloadLine, toolPayload } from '../../fold/agent-transcript.js';
import type { RunState } from '../../fold/run-state.js';
import { count, shorten } from './format.js';

/** How much of a tool's input or answer a transcript line shows (the log keeps more). */
const TOOL_SHOWN = 300;

/** Text set in under a label: its first line after the label, the others indented. */
function block(label: string, text: string): string[] {
  const [first = '', ...rest] = text.trim().split('\n');
  return [
    `  ${label} ${first}`,
    ...rest.map((line) => (line ? `  ${' '.repeat(label.length)} ${line}` : '')),
  ];
}

/**
 * One agent's transcript, turn by turn, as `agent-teams logs --agent` prints it: why each
 * turn ran and on which task, its briefing in short, each tool call and answer, what it
 * wrote, and how the turn ended. Fed the run's events in order, with the fold after each.
 */
export class TranscriptPrinter {
  readonly #agent: string;
  /** The text the agent wrote last in its current turn: a final reply equal to it is not repeated. */
  #lastText = '';
  #tokens = 0;

  constructor(agent: string) {
    this.#agent = agent;
  }

  lines(event: TeamEvent, run: RunState): string[] {
    if (agentOf(event) !== this.#agent) return [];
    switch (event.type) {
      case 'team:member-started': {
        const { turn, reason, taskId } = event.data;
        const task = taskId ? ` · ${taskId} ${run.tasks.get(taskId)?.title ?? ''}` : '';
        this.#lastText = '';
        this.#tokens = 0;
        return ['', `turn ${turn} · ${reason}${task} · ${event.timestamp}`];
      }
      case 'team:turn-prompt':
        return event.data.step === undefined
          ? [`  prompt: ${shorten(event.data.prompt, 200)} (${count(event.data.prompt.length)} characters)`]
          : [`  given before step ${event.data.step}: ${shorten(event.data.prompt, 200)}`];
      case 'team:turn-text':
        this.#lastText = event.data.text.trim();
        return block('says:', event.data.text);
      case 'team:tool-called':
        return [
          `  → ${event.data.toolName} ${shorten(payloadLine(toolPayload(event.data.input)), TOOL_SHOWN)}`,
        ];
      case 'team:tool-result': {
        const mark = event.data.isError ? '✗' : '←';
        return [
          `  ${mark} ${event.data.toolName}: ${shorten(payloadLine(toolPayload(event.data.output)), TOOL_SHOWN)}`,
        ];
      }
      case 'team:turn-usage':
        // One per step (one per turn in logs written before steps were counted).
        this.#tokens += event.data.usage.totalTokens;
        return [];
      case 'team:member-finished': {
        const { status, output, error } = event.data;
        const final = output.trim() && output.trim() !== this.#lastText ? block('final:', output) : [];
        const tokens = this.#tokens ? ` · ${count(this.#tokens)} tokens` : '';
        return [...final, `  ended: ${status}${error ? ` (${error})` : ''}${tokens}`];
      }
      default:
        return [];
    }
  }
}

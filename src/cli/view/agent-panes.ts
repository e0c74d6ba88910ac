import { closeSync, constants, openSync, writeSync } from 'node:fs';
import type { TeamEvent } from '../../events/team-event-map.js';
import { agentOf } from '../../fold/agent-transcript.js';
import { applyEvent } from '../../fold/apply-event.js';
import { departed, emptyRunState } from '../../fold/run-state.js';
import { tmux } from '../tmux.js';
import { TranscriptPrinter } from './transcript.js';

/**
 * What an agent's pane runs: nothing but a wait, so the pane stays open (and its terminal
 * free for the view to write to) until the person closes it with Ctrl-C.
 */
const HOLD = 'exec tail -f /dev/null';
/** Under "says:", a streamed line's continuation lines are set in as the transcript sets them. */
const STREAM_INDENT = ' '.repeat(8);

/** How long the board waits to be told its new width (a terminal that never says must not hold the run). */
const RESIZE_WAIT_MS = 1000;

/**
 * Waits until this process's terminal (the board's pane) has the width tmux gave it: tmux
 * resizes a pane's terminal after its command answered, and a first frame drawn at the old
 * width would be left behind, wrapped, above the board.
 */
async function boardResized(board: string): Promise<void> {
  const out = process.stdout;
  if (!out.isTTY) return;
  const width = Number((await tmux(['display-message', '-p', '-t', board, '#{pane_width}'])).trim());
  const deadline = Date.now() + RESIZE_WAIT_MS;
  while (out.columns !== width && Date.now() < deadline) {
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        out.off('resize', done);
        resolve();
      };
      const timer = setTimeout(done, deadline - Date.now());
      out.on('resize', done);
    });
  }
}

/** One agent's pane: the terminal the view writes the agent's transcript to. */
interface AgentPane {
  readonly fd: number;
  readonly printer: TranscriptPrinter;
  /** Text is streaming into it now: the step's logged text is not written again. */
  streaming: boolean;
  /**
   * The last step's text was streamed and its logged copy has not come yet: the step's commit
   * may log its usage before its text, so the stream ends before the copy arrives.
   */
  streamed: boolean;
  /** The agent left the team, and the pane says so. */
  left: boolean;
}

/**
 * The split-pane view inside tmux: beside the pane the command runs in (the board), one pane
 * per agent, titled with its name, showing its turns as `agent-teams logs --agent` prints
 * them, with its text as the model streams it. An agent that joins the run (added or spawned)
 * gets its pane when it joins; one that leaves says so in its pane. The panes stay once the
 * run ends, for reading; Ctrl-C in one closes it.
 */
export class AgentPanes {
  readonly #board: string;
  readonly #notice: (line: string) => void;
  readonly #state = emptyRunState();
  /** By agent; `null` when tmux had no room for its pane. */
  readonly #panes = new Map<string, AgentPane | null>();
  /** The pane opened last: the next one opens after it. */
  #last: string | undefined;
  /** Panes open and are written in the order events came: one step after the other. */
  #work: Promise<void> = Promise.resolve();

  private constructor(board: string, notice: (line: string) => void) {
    this.#board = board;
    this.#notice = notice;
  }

  /**
   * Names the board's pane, shows every pane's title on its border, and opens the panes of
   * `agents` (the team as it is known before its run's first event), so the board is drawn
   * at its width from its first frame. `notice` tells the person what failed.
   */
  static async open(board: string, agents: readonly string[], notice: (line: string) => void) {
    await tmux(['set-option', '-w', '-t', board, 'pane-border-status', 'top']);
    await tmux(['set-option', '-w', '-t', board, 'pane-border-format', ' #{pane_title} ']);
    await tmux(['select-pane', '-t', board, '-T', 'agent-teams board']);
    const panes = new AgentPanes(board, notice);
    for (const name of agents) await panes.#open(name);
    await boardResized(board);
    return panes;
  }

  /** `events`, passed on as they come, each shown in the panes too. */
  async *follow(events: AsyncIterable<TeamEvent>): AsyncGenerator<TeamEvent> {
    for await (const event of events) {
      this.#work = this.#work
        .then(() => this.#show(event))
        .catch((error: unknown) => this.#notice(`The panes stopped following: ${(error as Error).message}`));
      yield event;
    }
  }

  /** Waits until every event is shown, writes `last` in every pane, and lets go of them. */
  async close(last: string): Promise<void> {
    await this.#work;
    for (const pane of this.#panes.values()) {
      if (!pane) continue;
      this.#write(pane, `${pane.streaming ? '\n' : ''}\n— ${last} · Ctrl-C closes this pane\n`);
      closeSync(pane.fd);
    }
    this.#panes.clear();
  }

  async #show(event: TeamEvent): Promise<void> {
    applyEvent(this.#state, event);
    for (const name of this.#state.agents.keys()) if (!this.#panes.has(name)) await this.#open(name);
    for (const [name, pane] of this.#panes) {
      const agent = this.#state.agents.get(name);
      if (pane && agent && departed(agent) && !pane.left) {
        pane.left = true;
        this.#write(pane, `\n— ${name} left the team (${agent.status})\n`);
      }
    }
    const name = agentOf(event);
    const pane = name === undefined ? undefined : this.#panes.get(name);
    if (!pane) return;
    if (event.type === 'team:text-delta') {
      const text = event.data.delta.replaceAll('\n', `\n${STREAM_INDENT}`);
      this.#write(pane, pane.streaming ? text : `  says: ${text}`);
      pane.streaming = true;
      return;
    }
    const lines = pane.printer.lines(event, this.#state);
    if (pane.streaming) {
      pane.streaming = false;
      pane.streamed = true;
      this.#write(pane, '\n');
    }
    // The step's text was streamed already: the logged copy is not written again.
    if (event.type === 'team:turn-text' && pane.streamed) {
      pane.streamed = false;
      return;
    }
    if (event.type === 'team:member-started') pane.streamed = false;
    if (lines.length > 0) this.#write(pane, `${lines.join('\n')}\n`);
  }

  /**
   * Opens a pane for `name` after the last agent's (or, when that one has no room left, off
   * the board) and lays the window out: the board on the left, the agents beside it, in the
   * order they came.
   */
  async #open(name: string): Promise<void> {
    const split = (target: string) =>
      tmux(['split-window', '-d', '-t', target, '-P', '-F', '#{pane_id} #{pane_tty}', HOLD]);
    try {
      const opened = await split(this.#last ?? this.#board).catch(() => split(this.#board));
      const [id = '', tty = ''] = opened.trim().split(' ');
      this.#last = id;
      await tmux(['select-pane', '-t', id, '-T', name]);
      await tmux(['select-layout', '-t', this.#board, 'main-vertical']);
      const fd = openSync(tty, constants.O_WRONLY | constants.O_NOCTTY);
      this.#panes.set(name, {
        fd,
        printer: new TranscriptPrinter(name),
        streaming: false,
        streamed: false,
        left: false,
      });
      this.#write(this.#panes.get(name) as AgentPane, `${name}\n`);
    } catch (error) {
      // Most often "no space for new pane": the window is too small for one more.
      this.#panes.set(name, null);
      this.#notice(`No pane for ${name}: ${(error as Error).message} (a larger window has room for more).`);
    }
  }

  #write(pane: AgentPane, text: string): void {
    try {
      writeSync(pane.fd, text);
    } catch {
      // The person closed the pane: nothing more goes to it.
    }
  }
}

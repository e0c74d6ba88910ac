import { tool } from 'ai';
import { z } from 'zod';
import type { Clock } from '../events/clock.js';
import { foldEvents } from '../fold/apply-event.js';
import { type AgentRunState, departed, type RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import { heldTask } from '../fold/waiting-fold.js';
import type { TeamStore } from '../store/team-store.js';
import { fitAnswer } from './fit-answer.js';
import { governed } from './tool-answer.js';
import { toolInputSchema } from './tool-input.js';

/** What `team_status` reads: the run's log (through the team's store) and the run's clock. */
export interface StatusContext {
  readonly store: TeamStore;
  readonly turn: TurnDescriptor;
  readonly maxTurnsPerMember: number;
  /** Members on the team at once (the team's `maxMembers`). */
  readonly maxMembers: number;
  readonly promptBudgetTokens: number;
  readonly clock: Clock;
}

const statusFields = z.strictObject({});
const statusInput = toolInputSchema(statusFields);

/** One member as `team_status` shows it. */
function memberStatus(state: RunState, agent: AgentRunState, now: number, maxTurns: number) {
  const on = agent.status === 'waiting' ? agent.waitingOn : null;
  const waitingOn =
    on === null
      ? {}
      : on.kind === 'request'
        ? { waitingOn: { request: on.requestId } }
        : { waitingOn: { answerFrom: on.to, question: on.messageId } };
  const held = agent.taskId ? state.tasks.get(agent.taskId) : heldTask(state.tasks, agent.name);
  const definition = agent.joined?.definition;
  return {
    name: agent.name,
    status: agent.status,
    ...waitingOn,
    task: held ? { id: held.id, title: held.title } : null,
    turns: {
      used: agent.countedTurns,
      left: departed(agent) ? 0 : Math.max(0, maxTurns - agent.countedTurns),
    },
    tokens: agent.usage.totalTokens,
    secondsSinceActive:
      agent.lastActiveAt === null ? null : Math.max(0, Math.round((now - agent.lastActiveAt) / 1000)),
    ...(definition === undefined ? {} : { definition }),
  };
}

/**
 * The lead's view of its team, from the run's log as its fold has it: each member's status
 * (`working`, `waiting` and on what, `idle`, `stopped`, `failed`, `shutdown`, `removed`), the
 * task it holds, its counted turns used and left, its tokens, and the seconds since its last
 * activity on the run's clock; and how many members the team has of its `maxMembers`.
 * Changes nothing.
 */
export function teamStatusTool(context: StatusContext) {
  return tool({
    description:
      "Each member's status (working; waiting, on a request or an answer; idle; stopped; failed; shutdown; removed), its task, turns used and left, tokens, and seconds since it last did something.",
    inputSchema: statusInput,
    execute: (input) =>
      governed('team_status', statusFields, input, async () => {
        const { store, turn, clock } = context;
        const state = foldEvents(await store.readEvents(turn.runId));
        const now = clock.now();
        const members = [...state.agents.values()]
          .filter((agent) => agent.role === 'member')
          .map((agent) => memberStatus(state, agent, now, context.maxTurnsPerMember));
        const active = members.filter((member) => !['shutdown', 'removed'].includes(member.status)).length;
        return fitAnswer({ members, active, maxMembers: context.maxMembers }, context.promptBudgetTokens);
      }),
  });
}

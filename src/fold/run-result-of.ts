import type { TeamTask } from '../board/task.js';
import type { StopReason } from '../events/team-event-map.js';
import type { AgentResult, MemberSummary, TeamRunResult } from './run-result.js';
import type { AgentRunState, RunState } from './run-state.js';

function summary(agent: AgentRunState): MemberSummary {
  return {
    name: agent.name,
    role: agent.role,
    status: agent.status,
    turns: agent.turns,
    taskId: agent.taskId,
  };
}

function agentResult(agent: AgentRunState): AgentResult {
  return {
    agent: agent.name,
    role: agent.role,
    output: agent.lastOutput,
    turns: agent.turns,
    usage: agent.usage,
  };
}

/** Turns of the lead and of all members, as `team:complete` and the result count them. */
export function turnCounts(state: RunState): { leadTurns: number; memberTurns: number } {
  let leadTurns = 0;
  let memberTurns = 0;
  for (const agent of state.agents.values()) {
    if (agent.role === 'lead') leadTurns += agent.turns;
    else memberTurns += agent.turns;
  }
  return { leadTurns, memberTurns };
}

/** A run's result from its state: the whole run's turns and usage, a resume included. */
export function runResultOf(
  state: RunState,
  output: string,
  tasks: readonly TeamTask[],
  stopReason: StopReason,
): TeamRunResult {
  const agents = [...state.agents.values()];
  return {
    output,
    agentResults: Object.fromEntries(agents.map((agent) => [agent.name, agentResult(agent)])),
    teamResult: { tasks, members: agents.map(summary), stopReason, ...turnCounts(state) },
    usage: {
      total: state.usage,
      byAgent: Object.fromEntries(agents.map((agent) => [agent.name, agent.usage])),
    },
    runId: state.runId ?? '',
  };
}

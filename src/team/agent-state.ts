import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Agent } from '../agent/agent.js';
import { modelName } from '../agent/resolve-model.js';
import { type ModelPrice, NO_USAGE, priceOf, type TokenUsage } from '../agent/usage.js';
import type { AgentRole, MemberStatus } from '../events/team-event-map.js';
import type { AgentResult, MemberSummary } from './run-result.js';

/** What a run knows of one agent while it goes. */
export interface AgentState {
  readonly agent: Agent;
  readonly role: AgentRole;
  readonly model: LanguageModelV3;
  readonly modelName: string;
  readonly price: ModelPrice | undefined;
  status: MemberStatus;
  /** Turns taken, every kind included. */
  turns: number;
  /** Turns that count against the agent's bound (for the lead: all but the synthesis). */
  countedTurns: number;
  taskId: string | null;
  lastOutput: string;
  usage: TokenUsage;
  /** The agents it messaged itself in its current turn (the harness answers only for the others). */
  readonly answered: Set<string>;
}

export function agentState(
  agent: Agent,
  role: AgentRole,
  model: LanguageModelV3,
  prices: Readonly<Record<string, ModelPrice>>,
): AgentState {
  return {
    agent,
    role,
    model,
    modelName: modelName(model),
    price: priceOf(model.modelId, prices),
    status: 'idle',
    turns: 0,
    countedTurns: 0,
    taskId: null,
    lastOutput: '',
    usage: NO_USAGE,
    answered: new Set(),
  };
}

export function memberSummary(state: AgentState): MemberSummary {
  return {
    name: state.agent.name,
    role: state.role,
    status: state.status,
    turns: state.turns,
    taskId: state.taskId,
  };
}

export function agentResult(state: AgentState): AgentResult {
  return {
    agent: state.agent.name,
    role: state.role,
    output: state.lastOutput,
    turns: state.turns,
    usage: state.usage,
  };
}

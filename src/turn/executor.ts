import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Agent } from '../agent/agent.js';
import { modelName } from '../agent/resolve-model.js';
import { type ModelPrice, priceOf, turnUsage } from '../agent/usage.js';
import { TeamError } from '../errors/index.js';
import type { GovernanceSettings } from '../governance/governance-options.js';
import type { TurnGovernance } from '../governance/open-request.js';
import { governTools } from '../governance/turn-tools.js';
import type { RunState } from '../run/run-state.js';
import type { TeamStore } from '../store/team-store.js';
import { leadSystem, memberSystem } from '../team/briefings.js';
import type { ThreadMemory } from '../team/threads.js';
import { createTeamTools, teamToolsFor } from '../team/tools/create-team-tools.js';
import type { TurnDescriptor } from './descriptor.js';
import { runModelTurn } from './model-turn.js';
import { turnHeaders } from './turn-headers.js';
import { describeError, type TurnOutcome } from './turn-outcome.js';
import { turnPrompt } from './turn-prompt.js';

/** Runs turns from their descriptors: in this process, or (later) on workers elsewhere. */
export interface TurnExecutor {
  /** Runs a turn to its end. Never rejects: a failure or an abort is its outcome. */
  execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome>;
}

/** What running a team's turns needs of the team: its agents, their models and prices. */
interface TeamDefinition {
  readonly name: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  readonly selfClaim: boolean;
  /** Each agent's resolved model, by agent name. */
  readonly models: ReadonlyMap<string, LanguageModelV3>;
  readonly pricing: Readonly<Record<string, ModelPrice>>;
  /** A turn's bound in ms, unless its agent sets one. */
  readonly turnTimeoutMs: number;
  readonly governance: GovernanceSettings;
}

export interface InProcessExecutorOptions {
  readonly team: TeamDefinition;
  readonly store: TeamStore;
  readonly threads: ThreadMemory;
  /** The run as its events tell it so far (the stalled and synthesis briefings read it). */
  readonly run: () => RunState;
  /** True once running turns should end after their current step (the run reached its budget). */
  readonly halt: () => boolean;
}

interface Equipment {
  readonly agent: Agent;
  readonly role: 'lead' | 'member';
  readonly model: LanguageModelV3;
  readonly system: string;
}

/**
 * Runs each turn here: reads its briefing from the store as the descriptor names it, then
 * one AI SDK tool loop with the agent's team tools bound to it (its own tools take their
 * names' places). Nothing of the run is shared with a turn but the store and the descriptor.
 */
export class InProcessExecutor implements TurnExecutor {
  readonly #options: InProcessExecutorOptions;
  readonly #equipped = new Map<string, Equipment>();

  constructor(options: InProcessExecutorOptions) {
    this.#options = options;
  }

  async execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome> {
    const { store, team, threads } = this.#options;
    const timeoutMs = this.#agent(turn.agent)?.turnTimeoutMs ?? team.turnTimeoutMs;
    const timedOut = new AbortController();
    const timer = setTimeout(() => timedOut.abort(), timeoutMs);
    // The turn's own tools: read_inbox gives only what the turn was not given yet.
    const seen = new Set(turn.messageIds);
    const delivered = () => [...seen].filter((id) => !turn.messageIds.includes(id));
    try {
      const { agent, role, model, system } = this.#equipment(turn.agent);
      const teamTools = teamToolsFor(createTeamTools({ store, team: team.name, seen }, agent.name), role);
      const governance: TurnGovernance = {
        store,
        team: team.name,
        turn,
        agent,
        run: this.#options.run,
        settings: team.governance,
        opened: [],
      };
      const tools = governTools(governance, role, teamTools, agent.tools);
      const context = { members: team.members, selfClaim: team.selfClaim, run: this.#options.run() };
      const prompt = await store.transact(team.name, (rules) => turnPrompt(rules, turn, context));
      const synthesis = turn.reason === 'synthesis';
      const outcome = await runModelTurn({
        model,
        system,
        history: threads.history(turn.threadId ?? undefined, agent.name),
        prompt,
        tools: synthesis ? {} : tools,
        maxSteps: synthesis ? 1 : agent.maxIterations,
        signal: AbortSignal.any([signal, timedOut.signal]),
        maxRetries: agent.maxRetries,
        // A turn that asked for something ends after the step that asked.
        halt: () => this.#options.halt() || governance.opened.length > 0,
        headers: turnHeaders({ ...turn }),
      });
      threads.remember(turn.threadId ?? undefined, agent.name, outcome.messages);
      return {
        kind: 'done',
        text: outcome.text,
        usage: turnUsage(outcome.usage, priceOf(model.modelId, team.pricing)),
        model: modelName(model),
        delivered: delivered(),
      };
    } catch (error) {
      if (signal.aborted) return { kind: 'aborted' };
      if (timedOut.signal.aborted) {
        const reason = `The turn of ${turn.agent} took longer than ${timeoutMs} ms (turnTimeoutMs) and was stopped.`;
        return {
          kind: 'failed',
          error: reason,
          delivered: delivered(),
          cause: new TeamError('turn-timeout', reason),
        };
      }
      return { kind: 'failed', error: describeError(error), delivered: delivered(), cause: error };
    } finally {
      clearTimeout(timer);
    }
  }

  #agent(name: string): Agent | undefined {
    const { team } = this.#options;
    return [team.lead, ...team.members].find((candidate) => candidate.name === name);
  }

  #equipment(name: string): Equipment {
    let made = this.#equipped.get(name);
    if (made) return made;
    const { team } = this.#options;
    const agent = this.#agent(name);
    const model = team.models.get(name);
    if (!agent || !model) throw new Error(`The team ${team.name} has no agent ${name}`);
    const role = agent === team.lead ? 'lead' : 'member';
    const picture = { team: team.name, lead: team.lead, members: team.members };
    made = {
      agent,
      role,
      model,
      system: role === 'lead' ? leadSystem(picture) : memberSystem(picture, agent),
    };
    this.#equipped.set(name, made);
    return made;
  }
}

import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { ToolSet } from 'ai';
import type { Agent } from '../agent/agent.js';
import { modelName, resolveModel } from '../agent/resolve-model.js';
import { type ModelPrice, priceOf, turnUsage } from '../agent/usage.js';
import { isTeamError, TeamError } from '../errors/index.js';
import type { TeamHooks } from '../governance/hooks.js';
import { judgeTurnEnd } from '../governance/hooks-turn.js';
import type { RunState } from '../run/run-state.js';
import type { TeamStore } from '../store/team-store.js';
import { leadSystem, memberSystem } from '../team/briefings.js';
import type { ThreadMemory } from '../team/threads.js';
import { createTeamTools, teamToolsFor } from '../team/tools/create-team-tools.js';
import { respondToShutdownTool } from '../team/tools/shutdown-tool.js';
import type { TurnDescriptor } from './descriptor.js';
import { runModelTurn } from './model-turn.js';
import { turnHeaders } from './turn-headers.js';
import { describeError, type TurnOutcome } from './turn-outcome.js';
import { turnPrompt } from './turn-prompt.js';

/** Runs turns from their descriptors: in this process, or (later) on workers elsewhere. */
export interface TurnExecutor {
  /** Runs a turn to its end. Never rejects: a failure or an abort is its outcome. */
  execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome>;
  /** Takes on a member that joined during the run (`run.addMember`). */
  join?(agent: Agent): void;
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
  readonly maxTurnsPerMember: number;
  readonly hooks: TeamHooks;
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
  /** Members that joined during the run, with their models. */
  readonly #joined = new Map<string, { agent: Agent; model: LanguageModelV3 }>();

  constructor(options: InProcessExecutorOptions) {
    this.#options = options;
  }

  join(agent: Agent): void {
    this.#joined.set(agent.name, { agent, model: resolveModel(agent.model) });
    // The lead's system prompt lists the roster: made again for its next turn.
    this.#equipped.delete(this.#options.team.lead.name);
  }

  async execute(turn: TurnDescriptor, signal: AbortSignal): Promise<TurnOutcome> {
    const { store, team, threads } = this.#options;
    const timeoutMs = this.#agent(turn.agent)?.turnTimeoutMs ?? team.turnTimeoutMs;
    const timedOut = new AbortController();
    const timer = setTimeout(() => timedOut.abort(), timeoutMs);
    // The turn's own tools: read_inbox gives only what the turn was not given yet.
    const seen = new Set(turn.messageIds);
    const delivered = () => [...seen].filter((id) => !turn.messageIds.includes(id));
    // A hook that throws inside a tool stops the turn, which then fails with its error.
    let hookFailure: unknown;
    const hookStop = new AbortController();
    const onHookFailure = (error: unknown) => {
      hookFailure ??= error;
      hookStop.abort(error);
    };
    try {
      const { agent, role, model, system } = this.#equipment(turn.agent);
      const hooks = { hooks: team.hooks, runId: turn.runId };
      const context = { store, team: team.name, seen, hooks, onHookFailure };
      const teamTools = teamToolsFor(createTeamTools(context, agent.name), role);
      const asked = this.#options.run().agents.get(turn.agent)?.shutdownRequest;
      const shutdownTools: ToolSet = asked
        ? { respond_to_shutdown: respondToShutdownTool(context, agent.name) }
        : {};
      const tools = { ...teamTools, ...shutdownTools, ...agent.tools };
      const briefing = { members: this.#members(), selfClaim: team.selfClaim, run: this.#options.run() };
      const prompt = await store.transact(team.name, (rules) => turnPrompt(rules, turn, briefing));
      const synthesis = turn.reason === 'synthesis';
      const outcome = await runModelTurn({
        model,
        system,
        history: threads.history(turn.threadId ?? undefined, agent.name),
        prompt,
        tools: synthesis ? {} : tools,
        maxSteps: synthesis ? 1 : agent.maxIterations,
        signal: AbortSignal.any([signal, timedOut.signal, hookStop.signal]),
        maxRetries: agent.maxRetries,
        halt: this.#options.halt,
        headers: turnHeaders({ ...turn }),
      });
      threads.remember(turn.threadId ?? undefined, agent.name, outcome.messages);
      const done = {
        kind: 'done',
        text: outcome.text,
        usage: turnUsage(outcome.usage, priceOf(model.modelId, team.pricing)),
        model: modelName(model),
        delivered: delivered(),
      } as const;
      const run = this.#options.run();
      const judged = {
        store,
        hooks: team.hooks,
        turn,
        outcome: done,
        run,
        maxTurnsPerMember: team.maxTurnsPerMember,
      };
      const rejected = await judgeTurnEnd(judged);
      return rejected ? { ...done, rejected } : done;
    } catch (error) {
      if (signal.aborted) return { kind: 'aborted' };
      const failed = hookFailure ?? (isTeamError(error, 'hook-failed') ? error : undefined);
      if (failed !== undefined) {
        return { kind: 'failed', error: describeError(failed), delivered: delivered(), cause: failed };
      }
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
    const joined = [...this.#joined.values()].map((each) => each.agent);
    return [team.lead, ...team.members, ...joined].find((candidate) => candidate.name === name);
  }

  #members(): readonly Agent[] {
    return [...this.#options.team.members, ...[...this.#joined.values()].map((each) => each.agent)];
  }

  #equipment(name: string): Equipment {
    let made = this.#equipped.get(name);
    if (made) return made;
    const { team } = this.#options;
    const agent = this.#agent(name);
    const model = team.models.get(name) ?? this.#joined.get(name)?.model;
    if (!agent || !model) throw new Error(`The team ${team.name} has no agent ${name}`);
    const role = agent === team.lead ? 'lead' : 'member';
    const picture = { team: team.name, lead: team.lead, members: this.#members() };
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

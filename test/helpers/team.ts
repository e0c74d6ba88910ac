import { Agent, type AgentConfig, Team, type TeamConfig, type TeamEvent, type TeamStore } from 'agent-teams';
import { type Script, type ScriptedCall, type ScriptedReply, scriptedModel } from 'agent-teams/testing';

export const createTask = (input: Record<string, unknown>) => ({ toolName: 'create_task', input });
export const tool = (toolName: string, input: Record<string, unknown> = {}) => ({ toolName, input });

/** A script by agent name; a turn of an agent without one just replies "ok". */
export function byAgent(
  scripts: Record<string, (call: ScriptedCall) => ScriptedReply | Promise<ScriptedReply>>,
): Script {
  return (call) => scripts[call.agent ?? '']?.(call) ?? 'ok';
}

export interface TestTeamOptions extends Partial<Omit<TeamConfig, 'lead' | 'members'>> {
  members?: string[];
  latencyMs?: number | ((call: ScriptedCall) => number);
  agents?: Partial<Record<string, Partial<AgentConfig>>>;
  store?: TeamStore;
}

/**
 * A team `t` of lead `lead` and members (default a, b, c) on one scripted model, with every
 * event it emits recorded in order.
 */
export function testTeam(script: Script, options: TestTeamOptions = {}) {
  const { members = ['a', 'b', 'c'], latencyMs, agents = {}, ...config } = options;
  const model = scriptedModel(script, { latencyMs });
  const agent = (name: string, instructions: string) =>
    new Agent({ name, model, instructions, ...agents[name] });
  const team = new Team({
    name: 't',
    lead: agent('lead', 'You plan.'),
    members: members.map((name) => agent(name, `You are good at ${name}.`)),
    ...config,
  });
  const events: TeamEvent[] = [];
  team.on('*', (event) => events.push(event));
  const of = <K extends TeamEvent['type']>(type: K) =>
    events.filter((event) => event.type === type) as unknown as TeamEvent<K>[];
  return { team, model, events, of };
}

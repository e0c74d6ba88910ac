// The team tools' page of the API reference (docs/api/tools.md): each tool as the model reads
// it, its description and its input's JSON Schema, made by the same functions a turn makes
// them with. The contexts below only fill the descriptions (a team with the default options);
// no tool runs.
import { asSchema, type Tool, type ToolSet } from 'ai';
import { Agent } from '../src/agent/agent.js';
import { MemoryStore } from '../src/store/memory/memory-store.js';
import { scriptedModel } from '../src/testing/scripted-model.js';
import { createTeamTools, teamToolsFor } from '../src/tools/create-team-tools.js';
import { retireMemberTool, spawnMemberTool } from '../src/tools/formation-tools.js';
import type { TurnGovernance } from '../src/tools/open-request.js';
import { submitPlanTool } from '../src/tools/plan-tools.js';
import { answerRequestTool, grantPathsTool } from '../src/tools/request-tools.js';
import { respondToShutdownTool } from '../src/tools/shutdown-tool.js';
import { teamStatusTool } from '../src/tools/team-status-tool.js';
import { workspaceTools } from '../src/tools/workspace-tools.js';

/** The default of `maxMembers` for a team of up to 10 members (see formation-options.ts). */
const DEFAULT_MAX_MEMBERS = 10;

interface ToolGroup {
  readonly title: string;
  /** Who is offered them, and when. */
  readonly when: string;
  readonly tools: ToolSet;
}

function groups(): ToolGroup[] {
  const store = new MemoryStore();
  const context = { store, team: 'team' };
  const all = createTeamTools(context, 'agent');
  const lead = teamToolsFor(all, 'lead');
  const member = teamToolsFor(all, 'member');
  const agent = new Agent({ name: 'agent', model: scriptedModel([]), instructions: 'Work.' });
  // Only read where a description says a number or a name; no tool is called.
  const turn = { runId: 'run', team: 'team', agent: 'agent', role: 'member', reason: 'task', turn: 1 };
  const governance = {
    store,
    team: 'team',
    turn,
    agent,
    opened: [],
    approvedCall: null,
  } as unknown as TurnGovernance;
  const formation = {
    store,
    team: 'team',
    turn,
    lead: agent,
    members: [],
    formation: { catalog: {}, spawnModels: [], maxMembers: DEFAULT_MAX_MEMBERS, delegate: false },
    promptBudgetTokens: 24_000,
  } as unknown as Parameters<typeof spawnMemberTool>[0];
  const status = {
    store,
    turn,
    maxTurnsPerMember: 6,
    maxMembers: DEFAULT_MAX_MEMBERS,
    promptBudgetTokens: 24_000,
  };
  const both = Object.fromEntries(Object.entries(lead).filter(([name]) => name in member));
  return [
    { title: 'The lead and the members', when: 'Every agent, every turn.', tools: both },
    {
      title: 'The lead',
      when: 'The lead, every turn.',
      tools: {
        ...Object.fromEntries(Object.entries(lead).filter(([name]) => !(name in member))),
        team_status: teamStatusTool(status as unknown as Parameters<typeof teamStatusTool>[0]),
      },
    },
    {
      title: 'The members',
      when: 'Every member, every turn (not `claim_task` for a member that plans first).',
      tools: Object.fromEntries(Object.entries(member).filter(([name]) => !(name in lead))),
    },
    {
      title: 'A team that forms itself',
      when: 'The lead, when the team has a `catalog` or `spawnModels`.',
      tools: { spawn_member: spawnMemberTool(formation), retire_member: retireMemberTool(formation) },
    },
    {
      title: 'Governance',
      when:
        'The lead: `answer_request` while a request to it is open, `grant_paths` with a `workspace`. ' +
        'A member with `requirePlanApproval`: `submit_plan` until its plan is approved.',
      tools: {
        answer_request: answerRequestTool(governance),
        grant_paths: grantPathsTool(governance),
        submit_plan: submitPlanTool(governance),
      },
    },
    {
      title: 'The workspace',
      when: 'Every member, with the team’s `workspace` (writes go through its permissions).',
      tools: workspaceTools({ ...governance, settings: { workspaceRoot: '.' } } as unknown as TurnGovernance),
    },
    {
      title: 'Shutting down',
      when: 'A member asked to shut down gracefully, until it answers.',
      tools: { respond_to_shutdown: respondToShutdownTool(context, 'agent') },
    },
  ];
}

interface Property {
  readonly type?: string | string[];
  readonly description?: string;
  readonly enum?: unknown[];
  readonly items?: { readonly type?: string };
  readonly minimum?: number;
  readonly maximum?: number;
}

/** A number's bounds as the model reads them in its schema (`integer ≥ 1`). */
function bounded(type: string, property: Property): string {
  const bounds = [
    ...(property.minimum === undefined ? [] : [`≥ ${property.minimum}`]),
    ...(property.maximum === undefined ? [] : [`≤ ${property.maximum}`]),
  ];
  return [type, ...bounds].join(' ');
}

async function section(name: string, tool: Tool): Promise<string> {
  const schema = (await asSchema(tool.inputSchema as never).jsonSchema) as {
    properties?: Record<string, Property>;
    required?: string[];
  };
  const rows = Object.entries(schema.properties ?? {}).map(([field, property]) => {
    const type = property.enum
      ? property.enum.map((value) => `\`${JSON.stringify(value)}\``).join(' \\| ')
      : property.type === 'array'
        ? `${property.items?.type ?? 'unknown'}[]`
        : bounded([property.type ?? 'unknown'].flat().join(' \\| '), property);
    const required = schema.required?.includes(field) ? 'yes' : 'no';
    return `| \`${field}\` | ${type} | ${required} | ${(property.description ?? '').replaceAll('|', '\\|')} |`;
  });
  const input =
    rows.length === 0
      ? 'No input.'
      : ['| Input | Type | Required | What it is |', '| --- | --- | --- | --- |', ...rows].join('\n');
  return `### ${name}\n\n${tool.description ?? ''}\n\n${input}\n`;
}

/** The page, in Markdown. */
export async function toolReference(): Promise<string> {
  const parts = [
    '# The team tools',
    '',
    'What an agent is offered besides its own tools, as the model reads it: each tool’s',
    'description and input, made by the functions a turn makes them with (for a team with',
    'the default options). An agent’s own tool of the same name takes the team tool’s place.',
    '',
  ];
  for (const group of groups()) {
    parts.push(`## ${group.title}`, '', group.when, '');
    for (const [name, tool] of Object.entries(group.tools)) parts.push(await section(name, tool));
  }
  return `${parts.join('\n').trimEnd()}\n`;
}

import type { ToolSet } from 'ai';
import type { AgentRole } from '../events/team-event-map.js';
import { assignTaskTool, createTaskTool, deleteTaskTool } from './lead-tools.js';
import { readInboxTool, sendMessageTool } from './message-tools.js';
import { getTaskTool, listTasksTool } from './task-pages.js';
import { claimTaskTool, updateTaskTool } from './task-tools.js';
import type { TeamToolContext } from './tool-context.js';

/** Which team tools each role gets (the seed's table, plus get_task for both and delete_task for the lead). */
const ROLE_TOOLS: Record<AgentRole, readonly (keyof typeof MAKERS)[]> = {
  lead: [
    'create_task',
    'assign_task',
    'delete_task',
    'list_tasks',
    'get_task',
    'update_task',
    'send_message',
    'read_inbox',
  ],
  member: ['list_tasks', 'get_task', 'claim_task', 'update_task', 'send_message', 'read_inbox'],
};

/** Each team tool's maker, in the order `createTeamTools` gives them. */
const MAKERS = {
  create_task: createTaskTool,
  assign_task: assignTaskTool,
  delete_task: deleteTaskTool,
  list_tasks: listTasksTool,
  get_task: getTaskTool,
  claim_task: claimTaskTool,
  update_task: updateTaskTool,
  send_message: sendMessageTool,
  read_inbox: readInboxTool,
} satisfies Record<string, (context: TeamToolContext, agentName: string) => ToolSet[string]>;

/**
 * Every team tool, bound to one agent: the tools act as that agent (a message is sent
 * from it, a task claimed for it), so no agent can act as another.
 */
export function createTeamTools(context: TeamToolContext, agentName: string): ToolSet {
  const tools: ToolSet = {};
  for (const [name, make] of Object.entries(MAKERS)) tools[name] = make(context, agentName);
  return inCallOrder(tools);
}

/**
 * `teamToolsFor(createTeamTools(context, agentName), role)`, making only the role's tools
 * (a turn makes its tools anew, so it does not make the ones it would drop).
 */
export function roleTeamTools(context: TeamToolContext, agentName: string, role: AgentRole): ToolSet {
  const tools: ToolSet = {};
  for (const name of ROLE_TOOLS[role]) tools[name] = MAKERS[name](context, agentName);
  return inCallOrder(tools);
}

/**
 * The AI SDK runs a step's tool calls at once; these tools apply them one after another, in
 * the order the model wrote them, so `create_task A` then `create_task B` (depending on A)
 * in one step works whatever the store's timing (or `spawn_member b`, then a task for b).
 */
export function inCallOrder(tools: ToolSet): ToolSet {
  let previous: Promise<unknown> = Promise.resolve();
  const ordered: ToolSet = {};
  for (const [name, tool] of Object.entries(tools)) {
    const execute = tool.execute;
    if (!execute) continue;
    ordered[name] = {
      ...tool,
      execute: (input: unknown, options: Parameters<typeof execute>[1]) => {
        const result = previous.then(() => execute(input, options));
        previous = result.catch(() => undefined);
        return result;
      },
    };
  }
  return ordered;
}

/** The tools of a role out of `createTeamTools`' set. */
export function teamToolsFor(tools: ToolSet, role: AgentRole): ToolSet {
  const picked: ToolSet = {};
  for (const name of ROLE_TOOLS[role]) {
    const found = tools[name];
    if (found) picked[name] = found;
  }
  return picked;
}

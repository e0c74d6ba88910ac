import type { ToolSet } from 'ai';
import type { AgentRole } from '../events/team-event-map.js';
import { assignTaskTool, createTaskTool, deleteTaskTool } from './lead-tools.js';
import { readInboxTool, sendMessageTool } from './message-tools.js';
import { getTaskTool, listTasksTool } from './task-pages.js';
import { claimTaskTool, updateTaskTool } from './task-tools.js';
import type { TeamToolContext } from './tool-context.js';

/** Which team tools each role gets (the seed's table, plus get_task for both and delete_task for the lead). */
const ROLE_TOOLS: Record<AgentRole, readonly string[]> = {
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

/**
 * Every team tool, bound to one agent: the tools act as that agent (a message is sent
 * from it, a task claimed for it), so no agent can act as another.
 */
export function createTeamTools(context: TeamToolContext, agentName: string): ToolSet {
  return inCallOrder({
    create_task: createTaskTool(context, agentName),
    assign_task: assignTaskTool(context, agentName),
    delete_task: deleteTaskTool(context, agentName),
    list_tasks: listTasksTool(context, agentName),
    get_task: getTaskTool(context, agentName),
    claim_task: claimTaskTool(context, agentName),
    update_task: updateTaskTool(context, agentName),
    send_message: sendMessageTool(context, agentName),
    read_inbox: readInboxTool(context, agentName),
  });
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

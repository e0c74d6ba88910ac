import type { Agent } from '../agent/agent.js';
import type { TeamTask } from '../board/task.js';
import type { TurnReason } from '../events/team-event-map.js';
import type { TeamMessage } from '../mailbox/message.js';
import { renderMessages } from '../mailbox/render.js';

// What the agents read about the team and each turn. Kept short: these words go into every
// model call, and a turn's coordination cost is counted in tokens (bench/tokens.ts).

export interface TeamPicture {
  readonly team: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
}

export function leadSystem(picture: TeamPicture): string {
  return [
    picture.lead.instructions,
    '',
    `You are ${picture.lead.name}, the lead of the team "${picture.team}". Plan the request as tasks with create_task: ` +
      'each self-contained (members see only their task), dependsOn for order, an assignee to give one to a member. ' +
      'Members work in parallel and report through task results and messages. Do not do the tasks yourself. ' +
      'When the work is done you will be asked for the final answer; if the request needs no team, answer it now.',
  ].join('\n');
}

export function memberSystem(picture: TeamPicture, member: Agent): string {
  const others = picture.members.filter((agent) => agent !== member).map((agent) => agent.name);
  return [
    member.instructions,
    '',
    `You are ${member.name}, a member of the team "${picture.team}", led by ${picture.lead.name}` +
      (others.length > 0 ? `; teammates: ${others.join(', ')}.` : '.') +
      ' Work on one task at a time and finish it with update_task: status "completed" with the whole result, ' +
      'or "pending" to give it back. send_message reaches a teammate, "lead" or "everyone".',
  ].join('\n');
}

function header(reason: TurnReason, taskId?: string): string {
  return `[turn: ${reason}${taskId ? ` ${taskId}` : ''}]`;
}

function roster(members: readonly Agent[]): string {
  return members
    .map((agent) => {
      const expertise = agent.metadata.expertise?.length
        ? ` (expertise: ${agent.metadata.expertise.join(', ')})`
        : '';
      return `- ${agent.name}: ${agent.summary}${expertise}`;
    })
    .join('\n');
}

function taskLines(tasks: readonly TeamTask[]): string {
  return tasks
    .map((task) => {
      const who = task.owner ?? task.assignee;
      return `- ${task.id} [${task.closed ? 'closed' : task.status}${who ? `, ${who}` : ''}] ${task.title}`;
    })
    .join('\n');
}

export function leadStartBriefing(
  input: string,
  members: readonly Agent[],
  tasks: readonly TeamTask[],
): string {
  return [
    header('start'),
    `Request:\n${input}`,
    `Your team:\n${roster(members)}`,
    ...(tasks.length > 0 ? [`Already on the list:\n${taskLines(tasks)}`] : []),
  ].join('\n\n');
}

export function messageBriefing(messages: readonly TeamMessage[]): string {
  return [
    header('message'),
    renderMessages(messages),
    'Reply with send_message if they need an answer.',
  ].join('\n\n');
}

export function stalledBriefing(problems: readonly string[], tasks: readonly TeamTask[]): string {
  return [
    header('stalled'),
    `Nobody can go on: ${problems.join('; ')}.`,
    `Tasks:\n${taskLines(tasks)}`,
    'Assign, release (update_task status "pending") or close (status "completed") tasks so the work can finish.',
  ].join('\n\n');
}

export function taskBriefing(
  task: TeamTask,
  inputs: readonly TeamTask[],
  messages: readonly TeamMessage[],
): string {
  return [
    header('task', task.id),
    `Your task ${task.id}: ${task.title}${task.description ? `\n${task.description}` : ''}`,
    ...(inputs.length > 0
      ? [
          `Results it builds on:\n${inputs.map((input) => `[${input.id}] ${input.title}\n${input.result ?? ''}`).join('\n\n')}`,
        ]
      : []),
    ...(messages.length > 0 ? [renderMessages(messages)] : []),
  ].join('\n\n');
}

export function synthesisBriefing(input: string, tasks: readonly TeamTask[]): string {
  const results = tasks.map((task) => {
    const by = task.closed ? 'closed' : task.status === 'completed' ? `by ${task.owner}` : task.status;
    return `[${task.id}] ${task.title} (${by})\n${task.result ?? '(no result)'}`;
  });
  return [
    header('synthesis'),
    `Request:\n${input}`,
    `Results of the team's tasks:\n\n${results.join('\n\n')}`,
    'Write the final answer to the request from these results.',
  ].join('\n\n');
}

/** The output of a run without synthesis: every task and its result. */
export function tasksAsOutput(tasks: readonly TeamTask[]): string {
  return tasks
    .map((task) => `## ${task.id}: ${task.title}\n\n${task.result ?? `(${task.status})`}`)
    .join('\n\n');
}

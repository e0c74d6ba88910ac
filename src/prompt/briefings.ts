import type { Agent } from '../agent/agent.js';
import { specName } from '../agent/resolve-model.js';
import { canSpawn, type FormationSettings } from '../agent/team-formation.js';
import type { TeamTask } from '../board/task.js';
import type { TurnReason } from '../events/team-event-map.js';
import type { TeamMessage } from '../mailbox/message.js';
import { renderMessages } from '../mailbox/render.js';
import { fitItems } from './fit.js';
import { taskSummary } from './task-summary.js';
import { countTokens, cutToTokens, fitsTokens, tokenBound } from './tokens.js';

// What the agents read about the team and each turn. Kept short: these words go into every
// model call, and a turn's coordination cost is counted in tokens (bench/tokens.ts).

export interface TeamPicture {
  readonly team: string;
  readonly lead: Agent;
  readonly members: readonly Agent[];
  /** How the team forms itself: what the lead may spawn, and whether it only coordinates. */
  readonly formation?: FormationSettings | undefined;
}

export function leadSystem(picture: TeamPicture): string {
  const { formation } = picture;
  const delegate = formation?.delegate === true;
  return [
    picture.lead.instructions,
    '',
    `You are ${picture.lead.name}, the lead of the team "${picture.team}". Plan the request as tasks with create_task: ` +
      'each self-contained (members see only their task), dependsOn for order, an assignee to give one to a member. ' +
      'Members work in parallel and report through task results and messages. Do not do the tasks yourself. ' +
      (delegate
        ? 'You only coordinate: you have no tools to do work, so all of it goes to members as tasks. When the work is done you will be asked for the final answer.'
        : 'When the work is done you will be asked for the final answer; if the request needs no team, answer it now.'),
    ...(formation && canSpawn(formation) ? ['', spawning(formation)] : []),
  ].join('\n');
}

/** What the lead reads of the members it may start, and the bound on them. */
function spawning(formation: FormationSettings): string {
  const definitions = Object.entries(formation.catalog).map(([name, entry]) => `- ${name}: ${entry.summary}`);
  const models = formation.spawnModels.map(specName);
  return [
    `You may add members with spawn_member (at most ${formation.maxMembers} members at once) and let one go with retire_member once its work is done.`,
    ...(definitions.length > 0 ? ['Definitions you may spawn:', ...definitions] : []),
    ...(models.length > 0
      ? [`A member of your own instructions runs on ${models.join(' or ')} (the first unless you name one).`]
      : []),
  ].join('\n');
}

/** Teammates a member's system prompt names; past them it says how many more there are. */
const TEAMMATES_NAMED = 30;

export function memberSystem(picture: TeamPicture, member: Agent): string {
  const others = picture.members.filter((agent) => agent !== member).map((agent) => agent.name);
  const named =
    others.length > TEAMMATES_NAMED
      ? `${others.slice(0, TEAMMATES_NAMED).join(', ')} and ${others.length - TEAMMATES_NAMED} more`
      : others.join(', ');
  return [
    member.instructions,
    '',
    `You are ${member.name}, a member of the team "${picture.team}", led by ${picture.lead.name}` +
      (others.length > 0 ? `; teammates: ${named}.` : '.') +
      // The tools' descriptions say the rest (one task at a time, the result, whom a message reaches): said once.
      ' Finish each task with update_task.',
  ].join('\n');
}

function header(reason: TurnReason, detail?: string): string {
  return `[turn: ${reason}${detail ? ` ${detail}` : ''}]`;
}

function roster(members: readonly Agent[], room: number): string {
  const lines = members.map((agent) => {
    const expertise = agent.metadata.expertise?.length
      ? ` (expertise: ${agent.metadata.expertise.join(', ')})`
      : '';
    return `- ${agent.name}: ${agent.summary}${expertise}`;
  });
  return fitItems(lines, room, (left) => `- and ${left} more members`, { whole: 'see the members' });
}

/** A briefing's parts joined, cut to `room` tokens as a last resort (the parts are fitted first). */
function joined(parts: readonly string[], room: number): string {
  return cutToTokens(parts.join('\n\n'), room, 'list_tasks and get_task give the rest');
}

export function leadStartBriefing(
  input: string,
  members: readonly Agent[],
  tasks: readonly TeamTask[],
  room: number,
): string {
  const request = cutToTokens(`Request:\n${input}`, Math.floor(room / 2));
  const left = room - tokenBound(request, room) - 20;
  const team = `Your team:\n${roster(members, Math.floor(left / 3))}`;
  const list =
    tasks.length > 0
      ? [taskSummary('Already on the list', tasks, left - tokenBound(team, room), 'start')]
      : [];
  return joined([header('start'), request, team, ...list], room);
}

/** The most tokens of the run's request a member's briefing carries as the team's goal. */
const GOAL_TOKENS = 1_000;

/**
 * The team's goal as it is read in a member's briefings and the lead's message and stalled
 * ones: the run's request, cut to a sixth of the briefing's room and at most `GOAL_TOKENS` (a
 * task or a message says what to do now; the goal, what for). Empty for a turn without it.
 */
export function teamGoal(input: string | undefined, room: number, role: 'lead' | 'member'): string {
  if (!input) return '';
  const max = Math.min(GOAL_TOKENS, Math.floor(room / 6));
  return cutToTokens(
    `The team's goal (the request to ${role === 'lead' ? 'you' : 'the lead'}):\n${input}`,
    max,
    role === 'lead' ? 'your start briefing had the whole request' : 'the lead has the whole request',
  );
}

/** A message briefing and the messages it shows (the others stay unread for a later turn). */
export function messageBriefing(
  messages: readonly TeamMessage[],
  room: number,
  goal = '',
): { readonly text: string; readonly shown: readonly string[] } {
  const closing = 'Reply with send_message (to the sender, or "user" for the person) if they need an answer.';
  const { text, shown } = fitMessages(messages, room - 40 - tokenBound(goal, room));
  return { text: joined([header('message'), ...(goal ? [goal] : []), text, closing], room), shown };
}

/** Problems a stalled briefing names; past them it says how many more there are. */
const PROBLEMS_NAMED = 20;

export function stalledBriefing(
  problems: readonly string[],
  tasks: readonly TeamTask[],
  room: number,
  goal = '',
): string {
  const named = problems.slice(0, PROBLEMS_NAMED);
  const more = problems.length > named.length ? `; and ${problems.length - named.length} more` : '';
  const stuck = cutToTokens(`Nobody can go on: ${named.join('; ')}${more}.`, Math.floor(room / 3));
  const closing =
    'Assign, release (update_task status "pending") or close (status "completed") tasks so the work can finish.';
  const left = room - tokenBound(stuck, room) - tokenBound(closing, room) - tokenBound(goal, room) - 20;
  const parts = [header('stalled'), ...(goal ? [goal] : []), stuck];
  return joined([...parts, taskSummary('Tasks', tasks, left, 'stalled'), closing], room);
}

/** A task briefing and the messages it shows (the others stay unread for a later turn). */
export function taskBriefing(
  task: TeamTask,
  inputs: readonly TeamTask[],
  messages: readonly TeamMessage[],
  room: number,
  goal = '',
): { readonly text: string; readonly shown: readonly string[] } {
  const whole = `get_task { taskId: "${task.id}" } gives the whole`;
  const own = cutToTokens(
    `Your task ${task.id}: ${task.title}${task.description ? `\n${task.description}` : ''}`,
    Math.floor(room / 3),
    whole,
  );
  let left = room - tokenBound(own, room) - tokenBound(goal, room) - 20;
  const fitted = fitMessages(messages, Math.floor(left / 3));
  left -= tokenBound(fitted.text, room);
  const blocks = inputs.map((input) => `[${input.id}] ${input.title}\n${input.result ?? ''}`);
  const built =
    inputs.length > 0
      ? [
          `Results it builds on:\n${fitItems(blocks, left - 10, (more) => `(${more} more results: get_task reads them)`, { separator: '\n\n', whole: 'get_task gives the whole result' })}`,
        ]
      : [];
  const parts = [header('task', task.id), ...(goal ? [goal] : []), own, ...built];
  const text = joined([...parts, ...(fitted.text ? [fitted.text] : [])], room);
  return { text, shown: fitted.shown };
}

/** As many of `messages` as fit in `room`, oldest first, with the approval notice; at least one, cut if it must be. */
export function fitMessages(
  messages: readonly TeamMessage[],
  room: number,
): { readonly text: string; readonly shown: readonly string[] } {
  if (messages.length === 0) return { text: '', shown: [] };
  const all = renderMessages(messages);
  if (fitsTokens(all, room)) return { text: all, shown: messages.map((message) => message.id) };
  const shown: TeamMessage[] = [];
  const notice = countTokens(renderMessages(messages.slice(0, 1))) - countTokens(messages[0]?.content ?? '');
  let used = notice + 40;
  for (const message of messages) {
    const size = countTokens(message.content) + 30;
    if (shown.length > 0 && used + size > room) break;
    shown.push(message);
    used += size;
  }
  const more = messages.length - shown.length;
  const text = cutToTokens(
    `${renderMessages(shown)}${more > 0 ? `\n\n(${more} more messages wait for you: read_inbox gives them)` : ''}`,
    room,
    "the whole message is in the run's event log",
  );
  return { text, shown: shown.map((message) => message.id) };
}

/** The output of a run without synthesis: every task and its result. */
export function tasksAsOutput(tasks: readonly TeamTask[]): string {
  return tasks
    .map((task) => `## ${task.id}: ${task.title}\n\n${task.result ?? `(${task.status})`}`)
    .join('\n\n');
}

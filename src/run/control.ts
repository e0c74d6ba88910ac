import { z } from 'zod';
import { USER } from '../agent/participants.js';
import { checkKnownKeys } from '../errors/check-options.js';
import { parseOptions } from '../errors/options-schema.js';
import { TeamError } from '../errors/team-error.js';
import type { SentMessage } from '../mailbox/message.js';
import type { RequestRecord } from '../requests/request-state.js';
import type { RequestAnswer } from '../requests/team-requests.js';
import { askToDepart, requireActiveMember } from '../roster/departure-request.js';
import type { MemberProfile } from '../roster/roster.js';
import { runStatus } from '../store/run-record.js';
import type { TeamStore } from '../store/team-store.js';

// The control plane: what a person (or a program) does to a run, from any process that
// reaches its store — the run's own handle, the command in another shell, the Studio,
// another machine. Each is one commit of the team's rules; the run's one writer acts on it
// when it folds it, so a control acts the same wherever it came from, and survives a crash
// of the run's process (a resume folds it like any event).

export type { RequestAnswer };

/** How `run.shutdown` (and `agent-teams shutdown`) shuts a member down. */
export interface ShutdownOptions {
  /** Stop it at once (its turn is cut) instead of asking. Default `false`. */
  force?: boolean;
  /** Why, for the member and the log. */
  reason?: string;
}

/** A member to add to a running team: the profile the roster shows and the instructions it runs with. */
export interface JoiningMember extends MemberProfile {
  readonly name: string;
  readonly instructions: string;
}

/**
 * The run `runId` of `team`, if it is the team's current run and has not ended; throws
 * `team-not-found` or `run-ended` otherwise. A check from outside the run's commit: a control
 * committed just as the run ends is folded by nobody, and changes nothing.
 */
export async function requireGoingRun(store: TeamStore, team: string, runId: string): Promise<void> {
  const info = await store.getTeam(team);
  if (!info) throw new TeamError('team-not-found', `The store knows no team ${team}.`, { details: { team } });
  if (info.runId !== runId) {
    throw new TeamError('run-ended', `The run ${runId} is no longer the current run of ${team}.`, {
      details: { team, runId },
    });
  }
  const status = runStatus(await store.readEvents(runId));
  if (status !== 'running') {
    throw new TeamError('run-ended', `The run ${runId} has ended (${status}).`, {
      details: { team, runId, status },
    });
  }
}

/**
 * `requireGoingRun`, and a live process runs it: an interrupted run (its process died) has
 * nobody to act on a stop, so it is refused (`not-live`) with the way to continue it.
 */
export async function requireLiveRun(store: TeamStore, team: string, runId: string): Promise<void> {
  await requireGoingRun(store, team, runId);
  const [listing] = await store.listRuns({ runId });
  if (listing?.live) return;
  throw new TeamError(
    'not-live',
    `No live process runs ${runId}: it was interrupted (its process died). Continue it with agent-teams resume, or leave it.`,
    { details: { team, runId } },
  );
}

/** Checks an answer's shape; throws `invalid-input` naming what is wrong. */
function checkAnswer(answer: unknown): { approve: boolean; feedback: string; always: boolean } {
  if (typeof answer !== 'object' || answer === null) {
    throw new TeamError('invalid-input', 'An answer is { approve: true | false, feedback?, always? }.');
  }
  checkKnownKeys('an answer', answer, ['approve', 'feedback', 'always']);
  const { approve, feedback = '', always = false } = answer as Record<string, unknown>;
  if (typeof approve !== 'boolean') throw new TeamError('invalid-input', 'approve must be true or false.');
  if (typeof always !== 'boolean') throw new TeamError('invalid-input', 'always must be true or false.');
  if (always && !approve) throw new TeamError('invalid-input', 'always goes with an approval only.');
  if (typeof feedback !== 'string') throw new TeamError('invalid-input', 'feedback must be a string.');
  return { approve, feedback, always };
}

/**
 * Answers a request of the team's run as `by` (the person, `user`, by default). The rules
 * decide inside the commit: the first answer or expiry counts (`request-closed`), an unknown
 * request is `request-not-found`, and a refused answer changes nothing.
 */
export async function answerRequest(
  store: TeamStore,
  team: string,
  requestId: unknown,
  answer: unknown,
  by: string = USER,
): Promise<RequestRecord> {
  if (typeof requestId !== 'string' || !requestId) {
    throw new TeamError('invalid-input', 'A request id is a non-empty string, such as req-coder-2-1.');
  }
  const checked = checkAnswer(answer);
  return store.transact(team, ({ requests }) => requests.answer(requestId, checked, by));
}

/**
 * Throws unless a live process runs the team's current run (`team-not-found`, `not-live`
 * saying how to start or resume one): a message sent now would otherwise wait in an inbox
 * for a run that may never read it (a fresh run empties the inboxes).
 */
async function requireLiveTeam(store: TeamStore, team: string): Promise<void> {
  const info = await store.getTeam(team);
  if (!info) throw new TeamError('team-not-found', `The store knows no team ${team}.`, { details: { team } });
  const [listing] = info.runId ? await store.listRuns({ runId: info.runId }) : [];
  if (listing?.live) return;
  const status = listing ? runStatus(await store.readEvents(listing.runId)) : null;
  const how =
    status === 'running'
      ? `its run ${listing?.runId} was interrupted (its process died): continue it with agent-teams resume, then send`
      : 'start a run (agent-teams run, or team.start) and send while it goes';
  throw new TeamError('not-live', `No run of ${team} is going, so nobody would read the message: ${how}.`, {
    details: { team, runId: info.runId },
  });
}

/**
 * A message from the person (`user`, `fromAgent: false`) to an agent, `lead` or `everyone`:
 * it wakes its reader. Refused (`not-live`) when no live process runs the team's run.
 */
export async function sendAsUser(
  store: TeamStore,
  team: string,
  to: string,
  content: string,
): Promise<SentMessage> {
  await requireLiveTeam(store, team);
  return store.transact(team, ({ mailbox }) => mailbox.send(USER, to, content));
}

/** Asks the run to stop: its turns are cut, nothing is left in progress, it ends `aborted`. */
export async function abortRun(
  store: TeamStore,
  team: string,
  reason: unknown,
  by: string = USER,
): Promise<void> {
  const why =
    reason === undefined || reason === null
      ? null
      : reason instanceof Error
        ? reason.message
        : String(reason);
  await store.transact(team, ({ emit }) => emit({ type: 'team:abort-requested', data: { reason: why, by } }));
}

/** Checks `run.shutdown`'s options. */
export function checkShutdownOptions(options: unknown): { force: boolean; reason: string | null } {
  const { force, reason } = parseOptions(SHUTDOWN_SCHEMA, options, 'a shutdown');
  return { force: force === true, reason: reason?.trim() || null };
}

const SHUTDOWN_SCHEMA = z.strictObject({
  force: z.boolean().optional(),
  reason: z.string().optional(),
} satisfies Record<keyof ShutdownOptions, z.ZodType>);

/**
 * Shuts a member down. Graceful (the default): it is sent a `shutdown_request` and answers in
 * its next turn (not rejecting approves), departing as that turn ends; asked already (the
 * request unread), it is not asked twice. `force`: its running turn is cut and it departs.
 * With `removed`, it also leaves the team (`run.removeMember`).
 */
export async function requestShutdown(
  store: TeamStore,
  team: string,
  member: unknown,
  options: { readonly force: boolean; readonly reason: string | null; readonly removed?: boolean },
): Promise<void> {
  const { force, reason } = options;
  const removed = options.removed === true;
  await store.transact(team, (rules) => askToDepart(rules, member, { force, reason, removed, by: USER }));
}

/**
 * The person interrupts a member: the message is sent to it, and its running turn (if any) is
 * cut, its task kept; its next turn starts with the message. Refused (`not-live`) when no live
 * process runs the team's run; a member that left is refused as for a shutdown.
 */
export async function interruptMember(
  store: TeamStore,
  team: string,
  member: unknown,
  content: string,
): Promise<SentMessage> {
  await requireLiveTeam(store, team);
  return store.transact(team, (rules) => {
    const name = requireActiveMember(rules.roster, member);
    const sent = rules.mailbox.send(USER, name, content);
    rules.emit({ type: 'team:interrupt-requested', data: { member: name, messageId: sent.id, by: USER } });
    return sent;
  });
}

/** A member joins the running team: on its roster, with the instructions any process needs to run its turns. */
export async function joinMember(store: TeamStore, team: string, member: JoiningMember): Promise<void> {
  const { name, instructions, ...profile } = member;
  await store.transact(team, ({ roster }) => roster.join(name, profile, { instructions }));
}

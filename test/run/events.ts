import type { TeamEvent, TeamEventDraft } from 'agent-teams';

/** A run's log from drafts: stamped in order, as a store would. */
export function log(...drafts: TeamEventDraft[]): TeamEvent[] {
  return drafts.map(
    (draft, index) =>
      ({
        ...draft,
        team: 't',
        runId: 'run-1',
        seq: index + 1,
        timestamp: new Date(index * 1000).toISOString(),
      }) as TeamEvent,
  );
}

export const start = (members = ['a', 'b']): TeamEventDraft => ({
  type: 'team:start',
  data: { lead: 'lead', members, input: 'go' },
});

export const started = (
  member: string,
  turn: number,
  reason: 'start' | 'task' | 'message' | 'stalled' | 'synthesis',
  taskId: string | null = null,
): TeamEventDraft => ({
  type: 'team:member-started',
  data: { member, role: member === 'lead' ? 'lead' : 'member', turn, reason, taskId, messageIds: [] },
});

export const finished = (
  member: string,
  turn: number,
  reason: 'start' | 'task' | 'message' | 'stalled' | 'synthesis',
  output = 'ok',
  status: 'idle' | 'stopped' | 'failed' = 'idle',
): TeamEventDraft => ({
  type: 'team:member-finished',
  data: {
    member,
    role: member === 'lead' ? 'lead' : 'member',
    turn,
    reason,
    status,
    output,
    error: status === 'failed' ? 'boom' : null,
  },
});

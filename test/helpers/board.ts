import { InMemoryBlackboard, type TeamEventDraft, TeamTaskBoard } from 'agent-teams';

/** A board for lead `lead` and members `a`, `b`, `c`, recording its events. */
export function newBoard(options: { selfClaim?: boolean; maxTasks?: number } = {}) {
  const events: TeamEventDraft[] = [];
  let tick = 0;
  const board = TeamTaskBoard.initialize(
    new InMemoryBlackboard({ enabled: true, sections: {} }),
    { emit: (event) => events.push(event) },
    { lead: 'lead', members: ['a', 'b', 'c'], ...options },
    { now: () => new Date(Date.UTC(2026, 0, 1, 0, 0, tick++)) },
  );
  return { board, events };
}

/** Calls `fn` and returns the `TeamError` code and message it throws. */
export function refusal(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, message };
  }
  throw new Error('expected the call to be refused');
}

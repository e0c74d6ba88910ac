import type { TeamEvent } from '../events/team-event-map.js';
import { agentOf, type RunState } from './run-state.js';

/**
 * The fold of the lifecycle events (shutdown, roster, hooks), kept beside `applyEvent`,
 * which calls it for every event it has no case of its own for. In place and deterministic,
 * like `applyEvent`.
 */
export function foldLifecycle(state: RunState, event: TeamEvent): void {
  switch (event.type) {
    case 'team:shutdown-requested': {
      const agent = state.agents.get(event.data.member);
      if (!agent) break;
      const { force, reason, messageId } = event.data;
      if (!force) agent.shutdownRequest = { messageId, reason };
      else agent.departing ??= { force, reason, removed: event.data.removed === true };
      break;
    }
    case 'team:interrupt-requested': {
      const agent = state.agents.get(event.data.member);
      if (!agent) break;
      const { messageId, by } = event.data;
      agent.interrupt = { messageId, by, turn: agent.status === 'working' ? agent.turns : null };
      break;
    }
    case 'team:shutdown-rejected': {
      const agent = state.agents.get(event.data.member);
      if (agent) agent.shutdownRequest = null;
      break;
    }
    case 'team:member-shutdown': {
      const agent = state.agents.get(event.data.member);
      if (!agent) break;
      agent.status = event.data.removed ? 'removed' : 'shutdown';
      agent.shutdownRequest = null;
      agent.departing = null;
      agent.removed = event.data.removed;
      state.progress++;
      break;
    }
    case 'team:member-joined': {
      const { member, description, model, mode, instructions, definition } = event.data;
      const agent = agentOf(state, member, 'member');
      // A log written before joins carried instructions: the member runs only where it is defined.
      if (instructions !== undefined) {
        const from = definition === undefined ? {} : { definition };
        agent.joined = { name: member, description, model, mode, instructions, ...from };
      }
      state.progress++;
      break;
    }
  }
}

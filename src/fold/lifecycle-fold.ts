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
      if (agent && !event.data.force) {
        agent.shutdownRequest = { messageId: event.data.messageId, reason: event.data.reason };
      }
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
      agent.status = 'shutdown';
      agent.shutdownRequest = null;
      agent.removed = event.data.removed;
      state.progress++;
      break;
    }
    case 'team:member-joined':
      agentOf(state, event.data.member, 'member');
      state.progress++;
      break;
  }
}

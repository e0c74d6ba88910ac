import { useState } from 'react';
import type { RunState } from '../../fold/run-state.js';
import { shutdownMember } from './api.js';

/**
 * Shut down for each member still on the team: graceful (it is asked, and answers in its
 * next turn) unless "force" is ticked (its turn stops at once). The member's status on the
 * graph changes when the run's events say so.
 */
export function ShutdownControls({ runId, state }: { runId: string; state: RunState }) {
  const [force, setForce] = useState(false);
  const [note, setNote] = useState('');
  const members = [...state.agents.values()].filter(
    (agent) => agent.role === 'member' && agent.status !== 'shutdown',
  );
  const shutdown = async (member: string) => {
    try {
      await shutdownMember(runId, member, force);
      setNote(`${force ? 'shutting down' : 'asked to shut down'}: ${member}`);
    } catch (error) {
      setNote((error as Error).message);
    }
  };
  return (
    <section className="panel shutdown" aria-label="Shut down members">
      <h3>Members</h3>
      <ul>
        {members.map((agent) => (
          <li key={agent.name}>
            {agent.name}{' '}
            <button
              type="button"
              aria-label={`Shut down ${agent.name}`}
              disabled={agent.shutdownRequest !== null}
              onClick={() => void shutdown(agent.name)}
            >
              Shut down
            </button>
          </li>
        ))}
      </ul>
      <label>
        <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} /> force
        (stop its turn at once)
      </label>
      <span className="note" role="status">
        {note}
      </span>
    </section>
  );
}

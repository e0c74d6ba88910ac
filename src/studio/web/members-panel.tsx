import { type FormEvent, useState } from 'react';
import { departed, type RunState } from '../../fold/run-state.js';
import { addMember, interruptMember, removeMember, shutdownMember } from './api.js';

/**
 * The person shapes the team of a going run, whichever process runs it: interrupt a member
 * (its turn stops, and its next starts with the message), shut a member down
 * (graceful: it is asked, and answers in its next turn; "force": its turn stops at once),
 * remove it (its tasks go back to the list), or add one. Each is a commit the run acts on;
 * the graph changes when the run's events say so.
 */
export function MembersPanel({ runId, state }: { runId: string; state: RunState }) {
  const [force, setForce] = useState(false);
  const [note, setNote] = useState('');
  const [name, setName] = useState('');
  const [instructions, setInstructions] = useState('');
  const [model, setModel] = useState('');
  const [interruption, setInterruption] = useState('');
  const members = [...state.agents.values()].filter((agent) => agent.role === 'member' && !departed(agent));
  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await work();
      setNote(done);
      return true;
    } catch (error) {
      setNote((error as Error).message);
      return false;
    }
  };
  const add = async (event: FormEvent) => {
    event.preventDefault();
    const joining = { name: name.trim(), instructions, ...(model.trim() ? { model: model.trim() } : {}) };
    if (await act(() => addMember(runId, joining), `joining: ${joining.name}`)) {
      setName('');
      setInstructions('');
    }
  };
  return (
    <section className="panel members" aria-label="Members">
      <h3>Members</h3>
      <ul>
        {members.map((agent) => (
          <li key={agent.name}>
            {agent.name}{' '}
            <button
              type="button"
              aria-label={`Shut down ${agent.name}`}
              disabled={agent.shutdownRequest !== null}
              onClick={() =>
                void act(
                  () => shutdownMember(runId, agent.name, force),
                  `${force ? 'shutting down' : 'asked to shut down'}: ${agent.name}`,
                )
              }
            >
              Shut down
            </button>{' '}
            <button
              type="button"
              aria-label={`Interrupt ${agent.name}`}
              title="Stop its turn now; its next turn starts with the message below (its task stays with it)"
              disabled={!interruption.trim()}
              onClick={async () => {
                if (
                  await act(
                    () => interruptMember(runId, agent.name, interruption),
                    `interrupted: ${agent.name}`,
                  )
                )
                  setInterruption('');
              }}
            >
              Interrupt
            </button>{' '}
            <button
              type="button"
              aria-label={`Remove ${agent.name}`}
              onClick={() => void act(() => removeMember(runId, agent.name), `removing: ${agent.name}`)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      <input
        aria-label="Interrupt message"
        placeholder="A message to interrupt with"
        value={interruption}
        onChange={(event) => setInterruption(event.target.value)}
      />
      <label>
        <input type="checkbox" checked={force} onChange={(event) => setForce(event.target.checked)} /> force
        (stop its turn at once)
      </label>
      <form className="add-member" onSubmit={(event) => void add(event)}>
        <input
          aria-label="New member's name"
          placeholder="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
        <input
          aria-label="New member's model"
          placeholder="provider/model (default: the lead's)"
          value={model}
          onChange={(e) => setModel(e.target.value)}
        />
        <textarea
          aria-label="New member's instructions"
          placeholder="instructions"
          value={instructions}
          onChange={(e) => setInstructions(e.target.value)}
        />
        <button type="submit" disabled={!name.trim() || !instructions.trim()}>
          Add member
        </button>
      </form>
      <span className="note" role="status">
        {note}
      </span>
    </section>
  );
}

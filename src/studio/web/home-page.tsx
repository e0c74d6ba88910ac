import { useEffect, useState } from 'react';
import { listRuns, type RunSummary, startRun, type TeamSummary } from './api.js';
import { RunList } from './run-list.js';

/** The file's teams, to start a run of, and every run in the store, to open. */
export function HomePage({ teams }: { teams: readonly TeamSummary[] }) {
  const [runs, setRuns] = useState<RunSummary[] | null>(null);
  const [team, setTeam] = useState('');
  const [input, setInput] = useState('');
  const [problem, setProblem] = useState('');

  useEffect(() => {
    let stopped = false;
    const load = () =>
      listRuns()
        .then((found) => !stopped && setRuns(found))
        .catch((error: Error) => setProblem(error.message));
    void load();
    // Runs of other processes appear without a reload.
    const timer = setInterval(load, 2000);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);

  const chosen = team || teams[0]?.name || '';
  const start = async () => {
    try {
      const { runId } = await startRun(chosen, input);
      location.hash = `#/runs/${encodeURIComponent(runId)}`;
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  return (
    <main className="home">
      <section className="panel">
        <h2>Start a run</h2>
        {teams.length === 0 ? (
          <p className="quiet">
            No team file: start the Studio with one (agent-teams studio teams.ts) to start runs here.
          </p>
        ) : (
          <form
            className="start"
            onSubmit={(event) => {
              event.preventDefault();
              void start();
            }}
          >
            <select aria-label="team" value={chosen} onChange={(event) => setTeam(event.target.value)}>
              {teams.map((candidate) => (
                <option key={candidate.name} value={candidate.name}>
                  {candidate.name}: {candidate.lead.name} leads{' '}
                  {candidate.members.map((member) => member.name).join(', ')}
                </option>
              ))}
            </select>
            <input
              aria-label="input"
              value={input}
              onChange={(event) => setInput(event.target.value)}
              placeholder="The request for the lead"
            />
            <button type="submit" disabled={!input.trim()}>
              Start
            </button>
          </form>
        )}
        {problem ? <p className="error">{problem}</p> : null}
      </section>
      <RunList runs={runs} />
    </main>
  );
}

import { useEffect, useState } from 'react';
import { listTeams, type TeamSummary } from './api.js';
import { HomePage } from './home-page.js';
import { RunPage } from './run-page.js';

/** The run a `#/runs/<id>` address names, or `null` for the list. */
function routeOf(hash: string): string | null {
  const match = hash.match(/^#\/runs\/(.+)$/);
  return match ? decodeURIComponent(match[1] as string) : null;
}

export function App() {
  const [runId, setRunId] = useState(routeOf(location.hash));
  const [teams, setTeams] = useState<TeamSummary[]>([]);
  useEffect(() => {
    const follow = () => setRunId(routeOf(location.hash));
    window.addEventListener('hashchange', follow);
    void listTeams().then(setTeams, () => setTeams([]));
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return (
    <>
      <nav className="bar">
        <a href="#/">agent-teams studio</a>
      </nav>
      {runId ? <RunPage key={runId} runId={runId} teams={teams} /> : <HomePage teams={teams} />}
    </>
  );
}

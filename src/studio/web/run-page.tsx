import { useEffect, useMemo, useState } from 'react';
import { abortRun, type TeamSummary } from './api.js';
import { Composer } from './composer.js';
import { MembersPanel } from './members-panel.js';
import { Messages } from './messages.js';
import { RequestsPanel } from './requests-panel.js';
import { TaskColumns } from './task-columns.js';
import { TeamGraph } from './team-graph.js';
import { Timeline } from './timeline.js';
import { Transcript } from './transcript.js';
import { UsageTable } from './usage-table.js';
import { useRun } from './use-run.js';
import { elapsedMs, formatElapsed, trafficOf } from './views.js';

/** Each agent's turn limit, from the file's team of that name (a run of another team shows none). */
function limitsOf(team: TeamSummary | undefined): Map<string, number> {
  const limits = new Map<string, number>();
  if (!team) return limits;
  limits.set(team.lead.name, team.lead.maxTurns);
  for (const member of team.members) limits.set(member.name, member.maxTurns);
  return limits;
}

function useNow(ticking: boolean): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!ticking) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/** A run: live from its stream, or replayed to any point of its log. */
export function RunPage({ runId, teams }: { runId: string; teams: readonly TeamSummary[] }) {
  const run = useRun(runId);
  const { state, events, position } = run;
  const [selected, setSelected] = useState<string | null>(null);
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState('');
  const shown = useMemo(() => events.slice(0, position), [events, position]);
  const traffic = useMemo(() => trafficOf(shown), [shown]);
  const going = state.stopReason === null && events.length > 0;
  const now = useNow(going && run.live);
  const agents = [...state.agents.keys()];
  const limits = limitsOf(teams.find((team) => team.name === state.team));
  const last = shown.at(-1)?.seq ?? 0;

  useEffect(() => {
    // The moment a seq is on screen, for the benchmark (bench/studio.ts) to read.
    document.body.dataset.shownSeq = String(last);
    document.body.dataset.shownAt = String(performance.timeOrigin + performance.now());
  }, [last]);

  return (
    <main className="run" data-run={runId} data-status={state.stopReason ?? (going ? 'running' : 'loading')}>
      <header className="run-head">
        <a href="#/">← runs</a>
        <h2>
          {state.team || '…'} <span className="run-id">{runId}</span>
        </h2>
        <span className={`badge ${state.stopReason ?? 'running'}`} data-testid="status">
          {state.stopReason ?? (run.live ? 'running' : 'replay')}
        </span>
        <span className="elapsed" title="elapsed">
          {formatElapsed(elapsedMs(shown, going && run.live, now))}
        </span>
        <span className="total">
          {state.usage.totalTokens.toLocaleString('en-US')} tokens
          {state.usage.cost === undefined ? '' : ` · $${state.usage.cost.toFixed(4)}`}
        </span>
        {run.lost ? (
          <span className="offline">The Studio stopped or restarted: open the address it printed.</span>
        ) : run.connected ? null : (
          <span className="offline">reconnecting…</span>
        )}
        {run.storeDown ? (
          <span className="offline" data-testid="store-outage">
            The store cannot be reached since {run.storeDown.since.slice(11, 19)}: {run.storeDown.error}. Runs
            wait for it.
          </span>
        ) : null}
        <button
          type="button"
          className="danger"
          disabled={!going || !run.live}
          onClick={() => abortRun(runId).catch((error: Error) => setProblem(error.message))}
        >
          Abort
        </button>
        {problem ? <span className="error">{problem}</span> : null}
      </header>
      {state.input ? <p className="input">{state.input}</p> : null}
      <div className="top">
        <TeamGraph
          state={state}
          traffic={traffic}
          limits={limits}
          selected={selected}
          onSelect={(agent) => {
            setSelected(agent);
            setTo(agent);
          }}
        />
        <div className="side">
          <UsageTable state={state} />
          <RequestsPanel runId={runId} state={state} live={going && run.live} />
          {going && run.live ? <MembersPanel runId={runId} state={state} /> : null}
        </div>
      </div>
      <TaskColumns state={state} />
      <div className="bottom">
        <div>
          <Messages messages={state.messages} agents={agents} liveRunId={going && run.live ? runId : null} />
          {going && run.live ? (
            <Composer runId={runId} agents={agents} to={to || (state.lead ?? '')} onTo={setTo} />
          ) : null}
        </div>
        {selected ? (
          <Transcript events={shown} agent={selected} onClose={() => setSelected(null)} />
        ) : (
          <p className="panel quiet">Click an agent to see its turns.</p>
        )}
      </div>
      <Timeline total={events.length} position={position} live={run.live} events={events} onSeek={run.seek} />
    </main>
  );
}

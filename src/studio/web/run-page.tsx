import { useEffect, useMemo, useState } from 'react';
import { AnswerPanel } from './answer-panel.js';
import { abortRun, type RunSummary, resumeRun, runSummary, type TeamSummary } from './api.js';
import { Board } from './board-editor.js';
import { Composer } from './composer.js';
import { MembersPanel } from './members-panel.js';
import { Messages } from './messages.js';
import { RequestsPanel } from './requests-panel.js';
import { TeamGraph } from './team-graph.js';
import { Timeline } from './timeline.js';
import { Transcript } from './transcript.js';
import { TurnWaterfall } from './turn-waterfall.js';
import { UsageTable } from './usage-table.js';
import { useRun } from './use-run.js';
import { elapsedMs, formatElapsed, type Streaming, trafficOf, turnsOf } from './views.js';

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

/** Stop reasons after which a run can go on (`agent-teams resume`); an interrupted run too. */
const RESUMABLE = new Set(['aborted', 'failed', 'interrupted']);
const NOTHING_STREAMED: ReadonlyMap<string, Streaming> = new Map();

/**
 * The run's summary from the Studio (whether a live process runs it, which its log cannot
 * tell), fetched again whenever the log says the run stopped or started, and every few
 * seconds while it goes, so a run whose process died shows `interrupted`.
 */
function useSummary(runId: string, going: boolean, stops: number): RunSummary | null {
  const [summary, setSummary] = useState<RunSummary | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `stops` says the log's status changed.
  useEffect(() => {
    let stopped = false;
    const load = () =>
      runSummary(runId).then(
        (found) => !stopped && setSummary(found),
        () => undefined,
      );
    void load();
    const timer = going ? setInterval(load, 2000) : undefined;
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [runId, going, stops]);
  return summary;
}

/** A run: live from its stream, or replayed to any point of its log. */
export function RunPage({ runId, teams }: { runId: string; teams: readonly TeamSummary[] }) {
  const run = useRun(runId);
  const { state, events, position } = run;
  const [selected, setSelected] = useState<string | null>(null);
  const [focus, setFocus] = useState<number | null>(null);
  const [to, setTo] = useState('');
  const [problem, setProblem] = useState('');
  const shown = useMemo(() => events.slice(0, position), [events, position]);
  const traffic = useMemo(() => trafficOf(shown), [shown]);
  // Once per new event, not once per tick of the clock.
  const turns = useMemo(() => turnsOf(shown), [shown]);
  const going = state.stopReason === null && events.length > 0;
  const now = useNow(going && run.live);
  const agents = [...state.agents.keys()];
  const limits = limitsOf(teams.find((team) => team.name === state.team));
  const last = shown.at(-1)?.seq ?? 0;
  const streaming = run.live ? run.streaming : NOTHING_STREAMED;
  const stops = useMemo(
    () => events.filter((event) => event.type === 'team:complete' || event.type === 'team:resumed').length,
    [events],
  );
  const summary = useSummary(runId, going && run.live, stops);
  const status = run.live && summary?.status === 'interrupted' ? 'interrupted' : state.stopReason;
  const open = (agent: string, turn: number | null) => {
    setSelected(agent);
    setTo(agent);
    setFocus(turn);
  };

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
        <span className={`badge ${status ?? 'running'}`} data-testid="status">
          {status ?? (run.live ? 'running' : 'replay')}
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
        {run.live && status && RESUMABLE.has(status) ? (
          <button
            type="button"
            title="Continue the run in the Studio, as agent-teams resume does"
            onClick={() =>
              resumeRun(runId).then(
                () => setProblem(''),
                (error: Error) => setProblem(error.message),
              )
            }
          >
            Resume
          </button>
        ) : null}
        {run.storeDown ? (
          <span className="offline" data-testid="store-outage">
            The store cannot be reached since {run.storeDown.since.slice(11, 19)}: {run.storeDown.error}. Runs
            wait for it.
          </span>
        ) : null}
        <button
          type="button"
          className="danger"
          disabled={!going || !run.live || status === 'interrupted'}
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
          streaming={streaming}
          selected={selected}
          onSelect={(agent) => open(agent, null)}
        />
        <div className="side">
          <AnswerPanel state={state} events={shown} streaming={streaming} />
          <UsageTable state={state} />
          <RequestsPanel runId={runId} state={state} live={going && run.live} />
          {going && run.live ? <MembersPanel runId={runId} state={state} /> : null}
        </div>
      </div>
      <Board runId={runId} state={state} live={going && run.live} />
      <TurnWaterfall events={shown} turns={turns} going={going && run.live} now={now} onOpen={open} />
      <div className="bottom">
        <div>
          <Messages messages={state.messages} agents={agents} liveRunId={going && run.live ? runId : null} />
          {going && run.live ? (
            <Composer runId={runId} agents={agents} to={to || (state.lead ?? '')} onTo={setTo} />
          ) : null}
        </div>
        {selected ? (
          <Transcript
            turns={turns}
            agent={selected}
            streaming={streaming.get(selected)}
            focus={focus}
            onClose={() => setSelected(null)}
          />
        ) : (
          <p className="panel quiet">Click an agent to see its turns.</p>
        )}
      </div>
      <Timeline total={events.length} position={position} live={run.live} events={events} onSeek={run.seek} />
    </main>
  );
}

import { useState } from 'react';
import type { RunStatus } from '../../store/run-record.js';
import type { RunSummary } from './api.js';
import { formatElapsed } from './views.js';

/** Every status filter: any, going, stopped by a person or a crash (resumable), or ended. */
const STATUSES = [
  { value: '', label: 'any status' },
  { value: 'running', label: 'running' },
  { value: 'interrupted', label: 'interrupted' },
  { value: 'aborted', label: 'aborted' },
  { value: 'failed', label: 'failed' },
  { value: 'completed', label: 'completed' },
  { value: 'no-tasks', label: 'no-tasks' },
  { value: 'stalled', label: 'stalled' },
  { value: 'turn-limit', label: 'turn-limit' },
  { value: 'budget', label: 'budget' },
] as const satisfies readonly { value: RunStatus | ''; label: string }[];

/** Whether a run matches the typed filter: words found in its id, team or status, all of them. */
function matches(run: RunSummary, text: string): boolean {
  const haystack = `${run.runId} ${run.team} ${run.status}`.toLowerCase();
  return text
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => haystack.includes(word));
}

const cost = (usd: number | null) => (usd === null ? 'unpriced' : `$${usd.toFixed(4)}`);

/** The store's runs, newest first, with status, start, duration, tokens and cost; filtered by text and status. */
export function RunList({ runs }: { runs: readonly RunSummary[] | null }) {
  const [text, setText] = useState('');
  const [status, setStatus] = useState('');
  const shown = runs?.filter((run) => (!status || run.status === status) && matches(run, text)) ?? [];
  return (
    <section className="panel">
      <h2>
        Runs <span className="count">{runs ? `${shown.length} of ${runs.length}` : ''}</span>
      </h2>
      <div className="run-filter">
        <input
          aria-label="Filter runs"
          placeholder="filter: team, run id, status"
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <select aria-label="Run status" value={status} onChange={(event) => setStatus(event.target.value)}>
          {STATUSES.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </div>
      {runs === null ? <p className="quiet">Loading…</p> : null}
      {runs?.length === 0 ? <p className="quiet">No run in this store yet.</p> : null}
      {runs && runs.length > 0 && shown.length === 0 ? <p className="quiet">No run matches.</p> : null}
      <table className="runs">
        {shown.length > 0 ? (
          <thead>
            <tr>
              <th>run</th>
              <th>team</th>
              <th>status</th>
              <th>started</th>
              <th>duration</th>
              <th>tokens</th>
              <th>cost</th>
              <th />
            </tr>
          </thead>
        ) : null}
        <tbody>
          {shown.map((run) => (
            <tr key={run.runId} data-run={run.runId}>
              <td>
                <a href={`#/runs/${encodeURIComponent(run.runId)}`}>{run.runId}</a>
              </td>
              <td>{run.team}</td>
              <td>
                <span className={`badge ${run.status}`}>{run.status}</span>
              </td>
              <td>{run.startedAt.replace('T', ' ').slice(0, 19)}</td>
              <td data-cell="duration">{formatElapsed(run.durationMs)}</td>
              <td data-cell="tokens">{run.totalTokens.toLocaleString('en-US')}</td>
              <td data-cell="cost">{cost(run.costUsd)}</td>
              <td className="quiet">{run.runner ? `process ${run.runner.pid}` : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

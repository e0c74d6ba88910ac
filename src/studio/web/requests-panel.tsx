import { useState } from 'react';
import type { RunState } from '../../fold/run-state.js';
import type { RequestRecord } from '../../requests/request-state.js';
import { answerRequest } from './api.js';

/** One open request: what is asked, by whom of whom, and the person's answer to it. */
function OpenRequest({ runId, request }: { runId: string; request: RequestRecord }) {
  const [feedback, setFeedback] = useState('');
  const [always, setAlways] = useState(false);
  const [note, setNote] = useState('');
  const [sending, setSending] = useState(false);
  const answer = async (approve: boolean) => {
    setSending(true);
    try {
      // The request leaves the list once the answer's event comes back on the stream.
      await answerRequest(runId, request.id, { approve, feedback, always: approve && always });
    } catch (error) {
      setNote((error as Error).message);
      setSending(false);
    }
  };
  return (
    <li className="request" data-request={request.id}>
      <div className="request-head">
        <span className="badge">{request.kind}</span> {request.from} → {request.to}
      </div>
      <pre className="request-subject">{request.subject}</pre>
      <input
        aria-label={`Feedback for ${request.id}`}
        value={feedback}
        onChange={(event) => setFeedback(event.target.value)}
        placeholder="Feedback (optional)"
      />
      {request.kind === 'plan' ? null : (
        <label title="The approval stands for later calls too: this tool (on this path)">
          <input type="checkbox" checked={always} onChange={(event) => setAlways(event.target.checked)} />
          always
        </label>
      )}
      <button type="button" disabled={sending} onClick={() => void answer(true)}>
        Approve
      </button>
      <button type="button" className="danger" disabled={sending} onClick={() => void answer(false)}>
        Reject
      </button>
      {note ? <span className="error">{note}</span> : null}
    </li>
  );
}

/** The run's open requests, from the fold; answerable while the page follows a going run. */
export function RequestsPanel({ runId, state, live }: { runId: string; state: RunState; live: boolean }) {
  const open = [...state.governance.requests.values()].filter((request) => request.status === 'open');
  return (
    <section className="panel requests" aria-label="Open requests">
      <h3>
        Open requests <span className="count">{open.length}</span>
      </h3>
      {open.length === 0 ? <p className="quiet">None.</p> : null}
      <ul>
        {open.map((request) =>
          live ? (
            <OpenRequest key={request.id} runId={runId} request={request} />
          ) : (
            <li key={request.id} className="request" data-request={request.id}>
              <span className="badge">{request.kind}</span> {request.from} → {request.to}
              <pre className="request-subject">{request.subject}</pre>
            </li>
          ),
        )}
      </ul>
    </section>
  );
}

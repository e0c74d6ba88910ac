import type { TeamEvent } from '../../events/team-event-map.js';
import { transcriptOf } from './views.js';

/** One agent's turns: why each began, what it was given, its tool calls (once logged) and its reply. */
export function Transcript({
  events,
  agent,
  onClose,
}: {
  events: readonly TeamEvent[];
  agent: string;
  onClose: () => void;
}) {
  const turns = transcriptOf(events, agent);
  return (
    <section className="panel transcript" data-transcript={agent}>
      <h3>
        {agent}’s turns <span className="count">{turns.length}</span>
        <button type="button" className="link" onClick={onClose}>
          close
        </button>
      </h3>
      <div className="turns">
        {turns.length === 0 ? <p className="quiet">No turn yet.</p> : null}
        {turns.map((turn) => (
          <article key={turn.turn} className="turn" data-turn={turn.turn} data-reason={turn.reason}>
            <header>
              turn {turn.turn} · {turn.reason}
              {turn.taskId ? ` · ${turn.taskId}` : ''}
              {turn.tokens === null ? '' : ` · ${turn.tokens.toLocaleString('en-US')} tokens`}
              {turn.status ? ` · ${turn.status}` : ' · working…'}
            </header>
            {turn.messages.map((message, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a turn's messages never reorder.
              <p key={index} className="given">
                from {message.from === 'user' ? 'you' : message.from}: {message.content}
              </p>
            ))}
            {turn.steps.map((step, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: steps are appended only.
              <p key={index} className={`step ${step.kind}`}>
                {step.kind === 'tool-called' ? '→' : '←'} {step.tool} <code>{step.detail}</code>
              </p>
            ))}
            {turn.output ? <p className="reply">{turn.output}</p> : null}
            {turn.error ? <p className="error">{turn.error}</p> : null}
          </article>
        ))}
      </div>
    </section>
  );
}

import type { TeamEvent } from '../../events/team-event-map.js';
import type { RunState } from '../../fold/run-state.js';
import { answerOf, latestTextOf, type Streaming } from './views.js';

/**
 * The run's final answer once it ended; while it goes, the lead's latest text (as it streams,
 * for a run this Studio runs, else its last logged step or reply).
 */
export function AnswerPanel({
  state,
  events,
  streaming,
}: {
  state: RunState;
  events: readonly TeamEvent[];
  streaming: ReadonlyMap<string, Streaming>;
}) {
  if (state.stopReason !== null) {
    const answer = answerOf(events);
    return (
      <section className="panel answer" aria-label="Final answer" data-answer="final">
        <h3>Final answer</h3>
        {answer?.trim() ? (
          <div className="answer-text">{answer}</div>
        ) : (
          <p className="quiet">
            {answer === null
              ? 'This run’s log is from before answers were logged: the lead’s transcript has it.'
              : `No answer: the run ended ${state.stopReason}.`}
          </p>
        )}
      </section>
    );
  }
  const lead = state.lead;
  const live = lead ? streaming.get(lead)?.text : undefined;
  const latest = live ?? (lead ? latestTextOf(events, lead) : null);
  return (
    <section className="panel answer" aria-label="Final answer" data-answer="lead-latest">
      <h3>{lead ? `${lead}’s latest` : 'The lead’s latest'}</h3>
      {latest?.trim() ? (
        <div className={`answer-text${live ? ' streaming' : ''}`}>{latest}</div>
      ) : (
        <p className="quiet">Nothing written yet; the final answer comes here when the run ends.</p>
      )}
    </section>
  );
}

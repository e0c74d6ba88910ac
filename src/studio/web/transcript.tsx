import { useEffect, useRef } from 'react';
import { PayloadView } from './json-view.js';
import type { Streaming, TurnRecord, TurnStep } from './views.js';

function Step({ step }: { step: TurnStep }) {
  if (step.kind === 'text') return <p className="step text">{step.text}</p>;
  const mark = step.kind === 'tool-called' ? '→' : step.isError ? '✗' : '←';
  return (
    <div className={`step ${step.kind}${step.kind === 'tool-result' && step.isError ? ' failed' : ''}`}>
      <span className="step-head">
        {mark} {step.tool}
      </span>
      <PayloadView payload={step.payload} />
    </div>
  );
}

function Turn({ turn, streamed, focused }: { turn: TurnRecord; streamed: string | null; focused: boolean }) {
  const last = turn.steps.findLast((step) => step.kind === 'text');
  // The final reply is the last step's text, most often: said once.
  const reply = turn.output?.trim() && turn.output.trim() !== last?.text.trim() ? turn.output : null;
  const ref = useRef<HTMLElement>(null);
  useEffect(() => {
    if (focused) ref.current?.scrollIntoView({ block: 'nearest' });
  }, [focused]);
  return (
    <article
      ref={ref}
      className={`turn${focused ? ' focused' : ''}`}
      data-turn={turn.turn}
      data-reason={turn.reason}
    >
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
        <Step key={index} step={step} />
      ))}
      {streamed ? <p className="step text streaming">{streamed}</p> : null}
      {reply ? <p className="reply">{reply}</p> : null}
      {turn.error ? <p className="error">{turn.error}</p> : null}
    </article>
  );
}

/**
 * One agent's turns: why each began, what it was given, the text it wrote, its tool calls
 * and their answers (as folded JSON), and its reply; the text it is streaming now, while it
 * works. `focus` is a turn to show (a bar of the timeline was clicked).
 */
export function Transcript({
  turns: all,
  agent,
  streaming,
  focus,
  onClose,
}: {
  /** Every agent's turns (`turnsOf`). */
  turns: readonly TurnRecord[];
  agent: string;
  streaming: Streaming | undefined;
  focus: number | null;
  onClose: () => void;
}) {
  const turns = all.filter((turn) => turn.agent === agent);
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
          <Turn
            // A turn a crash cut is replayed under its number: the start tells them apart.
            key={`${turn.turn}@${turn.startedAt}`}
            turn={turn}
            focused={focus === turn.turn}
            streamed={turn.endedAt === null && streaming?.turn === turn.turn ? streaming.text : null}
          />
        ))}
      </div>
    </section>
  );
}

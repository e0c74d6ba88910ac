import { useState } from 'react';
import { sendMessage } from './api.js';

/** The person's message to an agent of a going run (or to lead, or everyone). */
export function Composer({
  runId,
  agents,
  to,
  onTo,
}: {
  runId: string;
  agents: readonly string[];
  to: string;
  onTo: (agent: string) => void;
}) {
  const [content, setContent] = useState('');
  const [note, setNote] = useState('');
  const send = async () => {
    try {
      await sendMessage(runId, to, content);
      setNote(`sent to ${to}`);
      setContent('');
    } catch (error) {
      setNote((error as Error).message);
    }
  };
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label>
        to{' '}
        <select aria-label="Send to" value={to} onChange={(event) => onTo(event.target.value)}>
          {[...agents, 'everyone'].map((agent) => (
            <option key={agent}>{agent}</option>
          ))}
        </select>
      </label>
      <input
        aria-label="Your message"
        value={content}
        onChange={(event) => setContent(event.target.value)}
        placeholder="Tell an agent something"
      />
      <button type="submit" disabled={!content.trim()}>
        Send
      </button>
      <span className="note" role="status">
        {note}
      </span>
    </form>
  );
}

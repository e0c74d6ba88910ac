import { useEffect, useState } from 'react';
import type { MessageRecord } from '../../fold/run-state.js';
import { readInbox } from './api.js';
import { PERSON } from './views.js';
import { VirtualList } from './virtual-list.js';

const time = (iso: string) => iso.slice(11, 19);
const who = (name: string) => (name === PERSON ? 'you' : name);

/** Everything, the person's conversation with the whole team, or with one agent. */
const ALL = '';
const TEAM = 'team';

function inConversation(message: MessageRecord, with_: string): boolean {
  if (with_ === ALL) return true;
  const person = message.from === PERSON || message.to.includes(PERSON);
  if (with_ === TEAM) return person;
  return (
    (message.from === PERSON && message.to.includes(with_)) ||
    (message.from === with_ && message.to.includes(PERSON))
  );
}

/**
 * The run's messages in order, the newest in view while the reader does not scroll up: all of
 * them, or the person's conversation with the team or with one agent. While the run goes,
 * messages to the person count as read once the page shows them (their inbox never fills).
 */
export function Messages({
  messages,
  agents,
  liveRunId,
}: {
  messages: readonly MessageRecord[];
  agents: readonly string[];
  /** The run, while a live process runs it. */
  liveRunId: string | null;
}) {
  const [with_, setWith] = useState(ALL);
  const shown = messages.filter((message) => inConversation(message, with_));
  const toPerson = messages.filter((message) => message.to.includes(PERSON)).length;
  useEffect(() => {
    if (liveRunId && toPerson > 0) readInbox(liveRunId).catch(() => undefined);
  }, [liveRunId, toPerson]);
  return (
    <section className="panel messages-panel">
      <h3>
        Messages <span className="count">{shown.length}</span>{' '}
        <select aria-label="Conversation" value={with_} onChange={(event) => setWith(event.target.value)}>
          <option value={ALL}>all</option>
          <option value={TEAM}>you and the team</option>
          {agents.map((agent) => (
            <option key={agent} value={agent}>
              you and {agent}
            </option>
          ))}
        </select>
      </h3>
      <VirtualList
        label="Messages"
        className="messages"
        items={shown}
        rowHeight={52}
        height={250}
        follow
        render={(message) => (
          <div
            className={`message${message.automatic ? ' automatic' : ''}${message.to.includes(PERSON) ? ' to-you' : ''}`}
            title={message.content}
          >
            <div className="message-head">
              <span className="time">{time(message.timestamp)}</span> <b>{who(message.from)}</b> →{' '}
              {message.to.map(who).join(', ')}
              {message.automatic ? ' (automatic)' : ''}
            </div>
            <div className="message-body">{message.content}</div>
          </div>
        )}
      />
    </section>
  );
}

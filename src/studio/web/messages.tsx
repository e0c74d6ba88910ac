import type { MessageRecord } from '../../fold/run-state.js';
import { VirtualList } from './virtual-list.js';

const time = (iso: string) => iso.slice(11, 19);

/** Every message of the run in order, the newest in view while the reader does not scroll up. */
export function Messages({ messages }: { messages: readonly MessageRecord[] }) {
  return (
    <section className="panel messages-panel">
      <h3>
        Messages <span className="count">{messages.length}</span>
      </h3>
      <VirtualList
        label="Messages"
        className="messages"
        items={messages}
        rowHeight={52}
        height={250}
        follow
        render={(message) => (
          <div className={`message${message.automatic ? ' automatic' : ''}`} title={message.content}>
            <div className="message-head">
              <span className="time">{time(message.timestamp)}</span>{' '}
              <b>{message.from === 'user' ? 'you' : message.from}</b> → {message.to.join(', ')}
              {message.automatic ? ' (automatic)' : ''}
            </div>
            <div className="message-body">{message.content}</div>
          </div>
        )}
      />
    </section>
  );
}

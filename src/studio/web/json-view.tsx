import type { ToolPayload } from '../../fold/agent-transcript.js';

/** Levels shown open at first: the payload itself; the objects and arrays in it start folded. */
const OPEN_LEVELS = 1;

function Scalar({ value }: { value: unknown }) {
  if (typeof value === 'string') {
    // A string as it reads: line breaks kept, no quotes escaped.
    return value.includes('\n') ? (
      <pre className="json-string">{value}</pre>
    ) : (
      <span className="json-string">“{value}”</span>
    );
  }
  return <span className="json-literal">{value === undefined ? 'undefined' : JSON.stringify(value)}</span>;
}

/**
 * A JSON value as a tree a person reads: each object and array folds (`details`), its
 * keys named, its strings as text. Nothing is escaped twice.
 */
function JsonView({ value, level = 0 }: { value: unknown; level?: number }) {
  if (typeof value !== 'object' || value === null) return <Scalar value={value} />;
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const size = Array.isArray(value)
    ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]`
    : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`;
  if (entries.length === 0) return <span className="json-literal">{Array.isArray(value) ? '[]' : '{}'}</span>;
  return (
    <details className="json" open={level < OPEN_LEVELS}>
      <summary>{size}</summary>
      <ul>
        {entries.map(([key, item]) => (
          <li key={key}>
            <span className="json-key">{key}</span>: <JsonView value={item} level={level + 1} />
          </li>
        ))}
      </ul>
    </details>
  );
}

/** A tool call's input or answer: folded JSON when it is JSON, else its text. */
export function PayloadView({ payload }: { payload: ToolPayload }) {
  return payload.kind === 'json' ? (
    <JsonView value={payload.value} />
  ) : (
    <pre className="payload-text">{payload.text}</pre>
  );
}

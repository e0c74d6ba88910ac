import type { TokenUsage } from '../../agent/usage.js';
import type { RunState } from '../../fold/run-state.js';

const tokens = (n: number) => n.toLocaleString('en-US');
const cost = (usage: TokenUsage) => (usage.cost === undefined ? 'unpriced' : `$${usage.cost.toFixed(4)}`);

/** Tokens and cost per agent and for the run, from the fold. */
export function UsageTable({ state }: { state: RunState }) {
  const agents = [...state.agents.values()];
  return (
    <section className="panel usage">
      <h3>Tokens and cost</h3>
      <table>
        <thead>
          <tr>
            <th>agent</th>
            <th>turns</th>
            <th>input</th>
            <th>output</th>
            <th>cost</th>
          </tr>
        </thead>
        <tbody>
          {agents.map((agent) => (
            <tr key={agent.name} data-usage={agent.name}>
              <td>{agent.name}</td>
              <td>{agent.turns}</td>
              <td>{tokens(agent.usage.inputTokens)}</td>
              <td>{tokens(agent.usage.outputTokens)}</td>
              <td title={agent.usage.unpriced?.join('\n')}>{cost(agent.usage)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-usage="total">
            <td>total</td>
            <td>{agents.reduce((sum, agent) => sum + agent.turns, 0)}</td>
            <td>{tokens(state.usage.inputTokens)}</td>
            <td>{tokens(state.usage.outputTokens)}</td>
            <td>{cost(state.usage)}</td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

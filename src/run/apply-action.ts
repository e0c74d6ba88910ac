import type { RunState } from '../fold/run-state.js';
import type { TurnDescriptor } from '../fold/turn-descriptor.js';
import type { TeamRules } from '../store/team-store.js';
import { departIn } from './departure.js';
import { startSynthesis, startTurn, type TurnRun } from './start-turn.js';
import type { Action } from './step.js';

/** What committing the step's actions needs of the run besides its fold. */
export interface ActionRun extends TurnRun {
  /** The lead's name: a synthesis turn is its. */
  readonly lead: string;
}

/**
 * Commits one action of `step` in the caller's transaction; answers the turn it started.
 * An action the store's state has made moot (a request answered meanwhile by another process)
 * commits nothing: the rules decide on what the store holds.
 */
export function applyAction(
  rules: TeamRules,
  state: RunState,
  action: Action,
  run: ActionRun,
): TurnDescriptor | undefined {
  const { requests, emit } = rules;
  switch (action.kind) {
    case 'turn':
      return startTurn(rules, state, action.decision, run);
    case 'synthesis-turn':
      return startSynthesis(rules, state, run.lead, run, action.part);
    case 'depart':
      departIn(rules, action.member, action.how, undefined);
      return undefined;
    case 'budget':
      emit({ type: 'team:budget-reached', data: { agent: null, ...action.reached } });
      return undefined;
    case 'expire':
      for (const id of action.requestIds) {
        const timeout = state.governance.requests.get(id)?.timeoutMs;
        requests.expire(id, `No answer within ${timeout} ms`);
      }
      return undefined;
    case 'forward':
      for (const id of action.requestIds) requests.forward(id, 'the lead can take no more turns');
      return undefined;
    case 'expire-questions':
      for (const { member, question } of action.questions) {
        const { messageId, to } = question;
        emit({ type: 'team:question-expired', data: { member, messageId, to } });
      }
      return undefined;
    case 'end':
      emit({
        type: 'team:run-ending',
        data: { stopReason: action.stopReason, synthesis: action.synthesis },
      });
      if (action.parts.length > 0) emit({ type: 'team:synthesis-planned', data: { parts: action.parts } });
      return undefined;
    case 'plan-synthesis':
      emit({ type: 'team:synthesis-planned', data: { parts: action.parts } });
      return undefined;
    default:
      return undefined;
  }
}

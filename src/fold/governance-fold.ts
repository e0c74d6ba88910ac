import type { TeamEvent } from '../events/team-event-map.js';
import { applyRequestEvent, emptyRequests, type RequestsState } from '../requests/request-state.js';

/** How a request has reached the turns of the run: what only the run (not the store) keeps. */
interface RequestDelivery {
  /** The lead has had a turn since it opened (its briefing listed it). */
  shown: boolean;
  /** The turn of the asker the answer was given to; it counts as delivered once that turn ends. */
  givenInTurn: number | null;
  delivered: boolean;
}

/** What a run's request events fold into: the requests and grants, and how answers reached turns. */
export interface GovernanceState extends RequestsState {
  /** How each request has reached the turns of the run, by request id. */
  readonly delivery: Map<string, RequestDelivery>;
  /** Each agent's turn in progress, by name (the turn a request opened in, for logs that do not record it). */
  readonly turns: Map<string, number>;
}

export function emptyGovernance(): GovernanceState {
  return { ...emptyRequests(), delivery: new Map(), turns: new Map() };
}

/** How `requestId` has reached the turns (a request opened in a log before its delivery was kept reads as new). */
function deliveryOf(governance: GovernanceState, requestId: string): RequestDelivery {
  let delivery = governance.delivery.get(requestId);
  if (!delivery) {
    delivery = { shown: false, givenInTurn: null, delivered: false };
    governance.delivery.set(requestId, delivery);
  }
  return delivery;
}

/**
 * Folds one event into the governance part of the run state (called by `applyEvent`): the
 * request events as a store folds them (`applyRequestEvent`), and the turn starts and ends
 * that deliver them: a lead turn sees the requests addressed to it, and an answer counts as
 * delivered once the asker's turn given it ends.
 */
export function applyGovernanceEvent(governance: GovernanceState, event: TeamEvent): void {
  if (event.type === 'team:request-opened' && event.data.turn === undefined) {
    // A log written before the event named its turn: the asker's turn in progress.
    const turn = governance.turns.get(event.data.from) ?? null;
    applyRequestEvent(
      governance,
      { type: event.type, data: { ...event.data, turn } },
      Date.parse(event.timestamp),
    );
  } else applyRequestEvent(governance, event, Date.parse(event.timestamp));
  switch (event.type) {
    case 'team:resumed':
      governance.turns.clear();
      break;
    case 'team:member-started':
      governance.turns.set(event.data.member, event.data.turn);
      for (const request of governance.requests.values()) {
        const delivery = deliveryOf(governance, request.id);
        if (event.data.role === 'lead' && event.data.reason !== 'synthesis' && request.to === 'lead')
          delivery.shown = true;
        if (request.from === event.data.member && request.status !== 'open' && !delivery.delivered)
          delivery.givenInTurn = event.data.turn;
      }
      break;
    case 'team:member-finished':
      governance.turns.delete(event.data.member);
      for (const request of governance.requests.values()) {
        const delivery = deliveryOf(governance, request.id);
        if (request.from === event.data.member && delivery.givenInTurn === event.data.turn)
          delivery.delivered = true;
      }
      break;
  }
}

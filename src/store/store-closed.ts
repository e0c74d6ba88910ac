import { TeamError } from '../errors/index.js';

/**
 * The error of a call on a store after its `close()`: the same code from every store, so a
 * program (or a run still going on a store someone closed) is told plainly, not with
 * whatever a closed pool or a stopped watch happens to throw.
 */
export function storeClosed(store: string): TeamError {
  return new TeamError('store-closed', `This ${store} is closed: it takes no more calls (make a new one).`);
}

export type { TurnReport, TurnRunner, TurnWorker, TurnWorkerOptions } from './turn-worker.js';
export { startTurnWorker } from './turn-worker.js';

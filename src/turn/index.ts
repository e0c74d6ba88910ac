export type { TurnDescriptor } from '../fold/turn-descriptor.js';
export type { HookRejection, TurnOutcome } from './turn-outcome.js';

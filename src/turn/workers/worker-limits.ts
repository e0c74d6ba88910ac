/**
 * Turns of each team a worker runs at once, at most. Each takes a connection to the database
 * and a model call's memory; more than this on one process is a sign of a typo (`1e9`), and
 * more workers are the way to run more turns.
 */
export const MAX_WORKER_CONCURRENCY = 64;

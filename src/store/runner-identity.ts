import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import { hostname } from 'node:os';
import { isAlive } from './process-alive.js';

// Who runs a run (or holds a lock), as a store's records name it. Whether that process is live
// is the store's lease to say (run-lease.ts); this file only lets a store know two things
// without it: that a record is this very process's (by a random token, never by a pid and a
// host name, which another machine may share), and that a runner is dead for sure. The
// latter needs the runner's pid to mean the same process here: the same kernel (its boot id)
// and the same pid namespace (containers on one kernel each have their own). Where the kernel
// does not say (not Linux), no runner is known dead, and its lease alone decides.

/** The name this process gives its host in a store's records: `AGENT_TEAMS_HOSTNAME`, else the OS's. */
export function hostName(): string {
  return process.env.AGENT_TEAMS_HOSTNAME || hostname();
}

/** This process, among all that ever ran a run: a record with this token is its own. */
const TOKEN = randomUUID();

let kernel: string | undefined | null = null;

/** The kernel's boot id and this process's pid namespace, read once; `undefined` where there are none. */
function kernelOf(): string | undefined {
  if (kernel === null) {
    try {
      const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
      kernel = `${boot} ${fs.readlinkSync('/proc/self/ns/pid')}`;
    } catch {
      kernel = undefined;
    }
  }
  return kernel;
}

/**
 * Where this process's pids mean what they say: its host's name, its kernel's boot id and its
 * pid namespace. Two processes with the same machine know each other's pids; a host of the
 * same name elsewhere (or a renamed one, `AGENT_TEAMS_HOSTNAME`) is another machine.
 */
function machineOf(): string | undefined {
  const here = kernelOf();
  return here === undefined ? undefined : `${hostName()} ${here}`;
}

/**
 * A process as a store's records name it.
 * @inline
 */
export interface ProcessIdentity {
  /** Its process id. */
  readonly pid: number;
  /** The host name of the machine it runs on. */
  readonly host: string;
  /** Where its pid means it (see `machineOf`); absent where the kernel does not say, and in older records. */
  readonly machine?: string;
  /** This process's own random token; absent in older records. */
  readonly token?: string;
}

/** This process, as records name it. */
export function thisProcess(): ProcessIdentity {
  const machine = machineOf();
  return { pid: process.pid, host: hostName(), ...(machine ? { machine } : {}), token: TOKEN };
}

/** Whether a record names this very process. */
export function isThisProcess(named: Pick<ProcessIdentity, 'token'> | undefined): boolean {
  return named?.token === TOKEN;
}

/**
 * Whether the process a record names is dead for sure: it ran on this machine (same kernel,
 * same pid namespace) and its pid is gone. A process elsewhere, or of an unknown machine, is
 * never known dead: its lease decides. (A pid reused since is taken as live: the lease then
 * runs out.)
 */
export function knownDead(named: Pick<ProcessIdentity, 'pid' | 'machine'>): boolean {
  const here = machineOf();
  return here !== undefined && named.machine === here && !isAlive(named.pid);
}

import net from 'node:net';
import type { TeamEvent } from 'agent-teams';
import type { ScriptedCall, ScriptedReply } from 'agent-teams/testing';
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import { mulberry32 } from '../../helpers/chaos-store.js';
import { POSTGRES_URL } from './database.js';

// Faults of the database as a run meets them: its sessions terminated (a failover, a
// restarted pooler, an idle-connection reaper), the server out of reach (a proxy that
// refuses), a COMMIT whose answer never comes back.

const admin = new pg.Pool({
  connectionString: POSTGRES_URL,
  max: 2,
  application_name: 'agent-teams tests admin',
});
admin.on('error', () => {});
afterAll(() => admin.end());

/**
 * Terminates every session of the schema's stores and pg-boss instances, in every process
 * (they name themselves `agent-teams <schema>` and `agent-teams boss <schema>`); answers how
 * many there were.
 */
export async function terminateBackends(schema: string): Promise<number> {
  const { rowCount } = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name IN ($1, $2)',
    [`agent-teams ${schema}`, `agent-teams boss ${schema}`],
  );
  return rowCount ?? 0;
}

/** The number of events the schema's log holds (read beside the stores, on the admin's connection). */
export async function loggedEvents(schema: string): Promise<number> {
  const { rows } = await admin
    .query<{ count: string }>(`SELECT count(*) AS count FROM "${schema}".events`)
    .catch(() => ({ rows: [{ count: '0' }] }));
  return Number(rows[0]?.count ?? 0);
}

/** The lead plans two layers of three tasks; each member completes its task with the tool, then says so. */
export function sixTasks(call: ScriptedCall): ScriptedReply {
  if (call.agent === 'lead') {
    if (call.reason === 'start' && call.step === 0) {
      const first = ['Gather A', 'Gather B', 'Gather C'].map((title) => ({ title }));
      const second = ['Write A', 'Write B', 'Write C'].map((title, i) => ({
        title,
        dependsOn: [`task-${i + 1}`],
      }));
      return { toolCalls: [...first, ...second].map((input) => ({ toolName: 'create_task', input })) };
    }
    return call.reason === 'synthesis' ? 'All six done.' : 'Planned.';
  }
  if (!call.taskId || call.step > 0) return 'Done.';
  const result = `${call.taskId} done by ${call.agent}`;
  return {
    toolCalls: [{ toolName: 'update_task', input: { taskId: call.taskId, status: 'completed', result } }],
  };
}

/** The run completed, without a resume, and each of the six tasks was worked on in one turn and completed once. */
export function expectSixDoneOnce(log: readonly TeamEvent[]): void {
  const ids = ['task-1', 'task-2', 'task-3', 'task-4', 'task-5', 'task-6'];
  const completed = log.flatMap((event) =>
    event.type === 'team:task-completed' ? [event.data.task.id] : [],
  );
  expect(completed.sort()).toEqual(ids);
  const turns = log.flatMap((event) =>
    event.type === 'team:member-started' && event.data.taskId ? [event.data.taskId] : [],
  );
  expect(turns.sort()).toEqual(ids);
  expect(log.filter((event) => event.type === 'team:resumed')).toEqual([]);
  const end = log.at(-1);
  expect(end?.type === 'team:complete' && end.data.stopReason).toBe('completed');
}

/** Three points of a run, by the count of events it has emitted, and a delay after each: drawn by seed. */
export function resetPoints(seed: number, within: number) {
  const random = mulberry32(seed);
  return Array.from({ length: 3 }, () => ({
    after: 1 + Math.floor(random() * within),
    delayMs: Math.floor(random() * 20),
  }));
}

/** What the proxy does to the statement it cuts: let it land and lose its answer, or lose it before it lands. */
export type CommitCut = 'after-landing' | 'before-landing';

/**
 * A TCP proxy to the test server, switchable: `down()` cuts every connection through it and
 * refuses new ones (the server is out of reach), `up()` lets them through again. `cutCommit`
 * cuts the connection of the next COMMIT it sees, before or after the server has it;
 * `cutStatement` the connection of the next statement whose text matches.
 */
export class DatabaseProxy {
  readonly #target = new URL(POSTGRES_URL);
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | undefined;
  #port = 0;
  #cut: { statement: RegExp; mode: CommitCut; done: () => void } | undefined;

  /** The test server's URL, through the proxy. */
  get url(): string {
    const url = new URL(POSTGRES_URL);
    url.hostname = '127.0.0.1';
    url.port = String(this.#port);
    return url.toString();
  }

  /** Starts taking connections (again, on the same port). */
  async up(): Promise<void> {
    if (this.#server) return;
    const server = net.createServer((client) => this.#connect(client));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.#port, '127.0.0.1', () => resolve());
    });
    this.#port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  /** Cuts every connection through it and refuses new ones. */
  async down(): Promise<void> {
    const server = this.#server;
    this.#server = undefined;
    for (const socket of this.#sockets) socket.destroy();
    this.#sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Cuts the connection of the next COMMIT sent through it (alone, or last of a text, after the write); settles once it has. */
  cutCommit(mode: CommitCut): Promise<void> {
    return this.cutStatement(/(?:^|;\s*)COMMIT$/i, mode);
  }

  /** Cuts the connection of the next statement sent through it whose text matches; settles once it has. */
  cutStatement(statement: RegExp, mode: CommitCut): Promise<void> {
    return new Promise((resolve) => {
      this.#cut = { statement, mode, done: resolve };
    });
  }

  #connect(client: net.Socket): void {
    const server = net.connect(Number(this.#target.port || 5432), this.#target.hostname);
    // Small messages go at once, as they would without the proxy (Nagle's wait is ~40 ms each).
    client.setNoDelay(true);
    server.setNoDelay(true);
    this.#sockets.add(client);
    this.#sockets.add(server);
    const cut = () => {
      client.destroy();
      server.destroy();
      this.#sockets.delete(client);
      this.#sockets.delete(server);
    };
    client.on('error', cut);
    server.on('error', cut);
    client.on('close', cut);
    server.on('close', cut);
    // A COMMIT the server has, whose answer is to be lost.
    let landing: (() => void) | undefined;
    server.on('data', (chunk) => {
      if (landing) {
        const done = landing;
        landing = undefined;
        cut();
        done();
        return;
      }
      client.write(chunk);
    });
    const messages = new MessageReader();
    client.on('data', (chunk) => {
      for (const message of messages.read(chunk)) {
        const cutting = this.#cut;
        const text = cutting && statementOf(message);
        if (cutting && text && cutting.statement.test(text)) {
          this.#cut = undefined;
          if (cutting.mode === 'before-landing') {
            cut();
            cutting.done();
            return;
          }
          landing = cutting.done;
        }
        server.write(message);
      }
    });
  }
}

/** Splits what a client sends into its protocol messages (the first, the startup, has no type byte). */
class MessageReader {
  #buffer = Buffer.alloc(0);
  #started = false;

  *read(chunk: Buffer): Generator<Buffer> {
    this.#buffer = Buffer.concat([this.#buffer, chunk]);
    for (;;) {
      const head = this.#started ? 1 : 0;
      if (this.#buffer.length < head + 4) return;
      const length = head + this.#buffer.readInt32BE(head);
      if (this.#buffer.length < length) return;
      const message = this.#buffer.subarray(0, length);
      this.#buffer = this.#buffer.subarray(length);
      this.#started = true;
      yield message;
    }
  }
}

/** The text of a statement sent: a simple query (`Q`), or the parse of an extended one (`P`: name, then text). */
function statementOf(message: Buffer): string | undefined {
  if (message[0] === 0x51) return message.subarray(5, message.length - 1).toString('utf8');
  if (message[0] !== 0x50) return undefined;
  const nameEnd = message.indexOf(0, 5);
  return message.subarray(nameEnd + 1, message.indexOf(0, nameEnd + 1)).toString('utf8');
}

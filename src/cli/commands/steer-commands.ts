import type { Command } from 'commander';
import type { RespondOptions } from '../respond.js';
import { postgresFlag, type StoreFlags, schemaFlag, storeFlag } from '../store-choice.js';
import type { StudioCommandOptions } from '../studio.js';
import type { WorkerFlags } from '../worker.js';
import { example, onStore } from './command-kit.js';

// The commands that act on running teams: `send`, `respond`, the `studio`, `worker` processes.

/** Adds them to `cli`. */
export function addSteerCommands(cli: Command): void {
  cli
    .command('send')
    .description('send a message to an agent of a team, as the person running it')
    .argument('<team>', 'the team')
    .argument('<agent>', 'the agent (or lead, or everyone)')
    .argument('<message>', 'what to tell it')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams send newsroom writer "Use metric units"'))
    .action(async (team: string, agent: string, message: string, options: StoreFlags) => {
      const { sendMessage } = await import('../send.js');
      await onStore(options, {}, (store) => sendMessage(store, team, agent, message));
    });

  cli
    .command('respond')
    .description(
      'answer a request of a team’s run (a plan, a permission, a tool call), as the person running it',
    )
    .argument('<team>', 'the team')
    .argument('<requestId>', 'the request (req-…), as logs shows it')
    .option('--approve', 'approve it')
    .option('--reject', 'reject it')
    .option('--feedback <text>', 'what the agent reads with the answer')
    .option(
      '--always',
      'with --approve, of a permission or tool call: it stands for later calls too (that tool on that path, or that tool), not only this one',
    )
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText(
      'after',
      example('npx agent-teams respond software req-coder-2-1 --reject --feedback "Add tests"'),
    )
    .action(async (team: string, requestId: string, options: StoreFlags & RespondOptions) => {
      const { respond } = await import('../respond.js');
      await onStore(options, {}, (store) => respond(store, team, requestId, options));
    });

  cli
    .command('abort')
    .description('stop the team’s run, from any shell: its turns stop, nothing is left in progress')
    .argument('<team>', 'the team')
    .option('--reason <text>', 'why, for the log')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams abort newsroom'))
    .action(async (team: string, options: StoreFlags & { reason?: string }) => {
      const { abortCommand } = await import('../control.js');
      await onStore(options, {}, (store) => abortCommand(store, team, options.reason));
    });

  cli
    .command('shutdown')
    .description('shut a member of the team’s run down, from any shell: asked (graceful), or at once')
    .argument('<team>', 'the team')
    .argument('<member>', 'the member')
    .option('--force', 'stop its running turn at once instead of asking')
    .option('--reason <text>', 'why, for the member and the log')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams shutdown newsroom checker --force'))
    .action(
      async (team: string, member: string, options: StoreFlags & { force?: boolean; reason?: string }) => {
        const { shutdownCommand } = await import('../control.js');
        await onStore(options, {}, (store) => shutdownCommand(store, team, member, options));
      },
    );

  cli
    .command('interrupt')
    .description(
      'stop a member’s running turn, from any shell: its task stays with it, and its next turn starts with your message',
    )
    .argument('<team>', 'the team')
    .argument('<member>', 'the member')
    .argument('<message>', 'what the member reads first')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams interrupt newsroom writer "Stop: use the 2025 figures"'))
    .action(async (team: string, member: string, message: string, options: StoreFlags) => {
      const { interruptCommand } = await import('../control.js');
      await onStore(options, {}, (store) => interruptCommand(store, team, member, message));
    });

  cli
    .command('studio')
    .description('watch, message and replay teams in the browser (a local page with a one-launch token)')
    .argument('[file]', 'a team file whose teams the page can start')
    .option('--port <n>', 'the port (default: a free one)')
    .option('--host <host>', 'the address to listen on', '127.0.0.1')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams studio examples/newsroom.ts'))
    .action(async (file: string | undefined, options: StudioCommandOptions) => {
      const { studioCommand } = await import('../studio.js');
      await studioCommand(file, options);
    });

  cli
    .command('worker')
    .description("run the turns that teams on PostgreSQL queue (executor: 'workers'), on this machine")
    .argument('<file>', 'the team file the runs were started from (the same definitions)')
    .option('--team <name>', 'only this one of the file’s teams')
    .option('--concurrency <n>', 'turns of each team at once', '1')
    .addOption(storeFlag().hideHelp())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText(
      'after',
      example('npx agent-teams worker teams.ts --postgres postgres://db.internal/teams --concurrency 4'),
    )
    .action(async (file: string, options: WorkerFlags) => {
      const { runWorker } = await import('../worker.js');
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      process.once('SIGHUP', stop);
      // Under `npx`, a SIGTERM ends npm without passing it on: the worker, left without its
      // parent, stops as if it had been told.
      const parent = process.ppid;
      const orphaned = setInterval(() => {
        if (process.ppid !== parent) stop();
      }, 500);
      orphaned.unref();
      try {
        await runWorker(file, options, controller.signal);
      } finally {
        clearInterval(orphaned);
      }
    });
}

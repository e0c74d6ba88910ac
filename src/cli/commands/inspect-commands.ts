import type { Command } from 'commander';
import { postgresFlag, schemaFlag, storeFlag } from '../store-choice.js';
import { example, inspect, jsonOption, onStore } from './command-kit.js';

// The commands that look into a store: `teams`, `tasks`, `inbox`, `logs`, `watch`.

/** Adds them to `cli`. */
export function addInspectCommands(cli: Command): void {
  cli
    .command('teams')
    .description('list the teams in a store, with their last run and its status')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams teams --store ./.agent-teams'))
    .action(async (options: { store: string; postgres?: string; schema?: string; json?: boolean }) => {
      const { showTeams } = await inspect();
      await onStore(options, {}, (store) => showTeams(store, options.json === true));
    });

  cli
    .command('runs')
    .description(
      'list a team’s runs: id, status (interrupted when its process died), start, duration, tokens, cost',
    )
    .argument('<team>', 'the team')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams runs newsroom'))
    .action(
      async (
        team: string,
        options: { store: string; postgres?: string; schema?: string; json?: boolean },
      ) => {
        const { showRuns } = await inspect();
        await onStore(options, {}, (store) => showRuns(store, team, options.json === true));
      },
    );

  cli
    .command('tasks')
    .description('show the task list of a team (or of every team)')
    .argument('[team]', 'the team')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams tasks newsroom'))
    .action(
      async (
        team: string | undefined,
        options: { store: string; postgres?: string; schema?: string; json?: boolean },
      ) => {
        const { showTasks } = await import('../show-tasks.js');
        await onStore(options, {}, (store) => showTasks(store, team, options.json === true));
      },
    );

  cli
    .command('inbox')
    .description(
      'show the messages in an agent’s inbox, read and unread (user: yours, marked read once shown)',
    )
    .argument('<team>', 'the team')
    .argument('<agent>', 'the agent, or user for the messages agents sent you')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText(
      'after',
      example('npx agent-teams inbox newsroom writer\n  npx agent-teams inbox newsroom user'),
    )
    .action(
      async (
        team: string,
        agent: string,
        options: { store: string; postgres?: string; schema?: string; json?: boolean },
      ) => {
        const { showInbox } = await inspect();
        await onStore(options, {}, (store) => showInbox(store, team, agent, options.json === true));
      },
    );

  cli
    .command('logs')
    .description('show the events of a team’s run (the last one by default)')
    .argument('<team>', 'the team')
    .option('--run <id>', 'another run of the team')
    .option('--agent <name>', 'only this agent’s transcript: its turns, tool calls and results, and text')
    .option('--follow', 'keep printing new events until the run completes')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams logs newsroom --follow'))
    .action(
      async (
        team: string,
        options: {
          run?: string;
          agent?: string;
          follow?: boolean;
          store: string;
          postgres?: string;
          schema?: string;
          json?: boolean;
        },
      ) => {
        const { showLogs } = await inspect();
        const controller = new AbortController();
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        try {
          await onStore(options, {}, (store) =>
            showLogs(store, team, {
              run: options.run,
              agent: options.agent,
              follow: options.follow === true,
              json: options.json === true,
              signal: controller.signal,
            }),
          );
        } finally {
          process.off('SIGINT', stop);
        }
      },
    );

  cli
    .command('watch')
    .description(
      'follow a team’s run as it goes, from any shell: the live board (--panes: a tmux pane per agent)',
    )
    .argument('<team>', 'the team')
    .option('--panes', 'inside tmux: a pane per agent with its turns as they stream, beside the board')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText('after', example('npx agent-teams watch newsroom --panes'))
    .action(
      async (
        team: string,
        options: { panes?: boolean; store: string; postgres?: string; schema?: string },
      ) => {
        const { watchTeam } = await import('../watch.js');
        const controller = new AbortController();
        // Ctrl-C stops the watching; the run goes on.
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        try {
          await onStore(options, {}, (store) =>
            watchTeam(store, team, { panes: options.panes === true, signal: controller.signal }),
          );
        } finally {
          process.off('SIGINT', stop);
        }
      },
    );
}

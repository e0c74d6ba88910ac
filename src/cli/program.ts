import { readFileSync } from 'node:fs';
import { Command, Option } from 'commander';
import type { TeamStore } from '../store/team-store.js';
import { CliError } from './cli-error.js';
import { DEFAULT_INIT_DIR, initTeam } from './init.js';
import { checkRequiredOptions, requiredOption } from './options.js';
import type { RespondOptions } from './respond.js';
import { DEFAULT_STORE } from './resume-hint.js';
import { chooseStore, postgresFlag, type StoreFlags, schemaFlag, storeFlag } from './store-choice.js';
import type { StudioCommandOptions } from './studio.js';
import type { WorkerFlags } from './worker.js';

// Each action imports what it uses when it runs, so that `--help` loads commander and this
// file, and the inspection commands the store without the AI SDK, the providers or jiti.
const inspect = () => import('./inspect.js');

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const jsonOption = () => new Option('--json', 'one JSON object per line');
const example = (...lines: string[]) => `\nExample:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** Runs `work` on the chosen store, and closes the store after (its connections, its watches). */
async function onStore(
  flags: StoreFlags,
  options: { create?: boolean },
  work: (store: TeamStore) => Promise<void>,
) {
  const store = await chooseStore(flags, options);
  try {
    await work(store);
  } finally {
    await store.close();
  }
}

/** The `agent-teams` command. Each action answers its exit code. */
export function program(setExitCode: (code: number) => void): Command {
  const cli = new Command('agent-teams')
    .description(
      'Run teams of LLM agents: a lead plans tasks, members work them, everyone talks by messages.',
    )
    .version(version)
    .showHelpAfterError();
  checkRequiredOptions(cli);

  cli
    .command('run')
    .description('run a team from a team file, with a live view')
    .argument('<file>', 'a TypeScript or JavaScript file that exports `teams`')
    .addOption(requiredOption('--input <text>', 'the request for the lead'))
    .option('--team <name>', 'which of the file’s teams (needed when it exports several)')
    .option('--model <provider/model>', 'run every agent on this model instead (e.g. ollama/llama3.2)')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText(
      'after',
      example('npx agent-teams run examples/newsroom.ts --input "Write a short article about tides"'),
    )
    .action(
      async (
        file: string,
        options: {
          input: string;
          team?: string;
          model?: string;
          store: string;
          postgres?: string;
          schema?: string;
          json?: boolean;
        },
      ) => {
        const [{ loadTeams, pickTeam }, { resumeCommand }, { runTeam }] = await Promise.all([
          import('./load-teams.js'),
          import('./resume-hint.js'),
          import('./run-team.js'),
        ]);
        const teams = await loadTeams(file);
        await onStore(options, { create: true }, async (store) => {
          let team = pickTeam(teams, file, options.team).withStore(store);
          if (options.model) team = team.withModel(options.model);
          const onAbort = `Continue it with: ${resumeCommand(file, options)}`;
          setExitCode(
            await runTeam(team, { input: options.input, fresh: true, json: options.json === true, onAbort }),
          );
        });
      },
    );

  cli
    .command('resume')
    .description('continue a team’s last run that a crash or Ctrl-C cut off')
    .argument('<file>', 'the team file the run was started from')
    .option('--team <name>', 'which of the file’s teams')
    .option('--model <provider/model>', 'run every agent on this model instead')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams resume examples/newsroom.ts'))
    .action(
      async (
        file: string,
        options: {
          team?: string;
          model?: string;
          store: string;
          postgres?: string;
          schema?: string;
          json?: boolean;
        },
      ) => {
        const [{ loadTeams, pickTeam }, { resumeCommand }, { runTeam }, { isTeamError }] = await Promise.all([
          import('./load-teams.js'),
          import('./resume-hint.js'),
          import('./run-team.js'),
          import('../errors/index.js'),
        ]);
        const teams = await loadTeams(file);
        await onStore(options, {}, async (store) => {
          let team = pickTeam(teams, file, options.team).withStore(store);
          if (options.model) team = team.withModel(options.model);
          const last = await store.resumeRun(team.name).catch((error: unknown) => {
            // A team the store never ran has nothing to resume; anything else (busy, a broken file) is said.
            if (isTeamError(error, 'team-not-found')) return undefined;
            throw error;
          });
          // That was a look at the run: the run below resumes it for real.
          if (last?.info.runId) await store.leaveRun(team.name, last.info.runId);
          const input = last?.events.find((event) => event.type === 'team:start')?.data;
          if (!last || !input || !('input' in input)) {
            throw new CliError(
              `nothing to resume: the last run of ${team.name} finished (start a new one with agent-teams run)`,
            );
          }
          const onAbort = `Continue it with: ${resumeCommand(file, options)}`;
          setExitCode(
            await runTeam(team, { input: input.input, fresh: false, json: options.json === true, onAbort }),
          );
        });
      },
    );

  cli
    .command('demo')
    .description('run the built-in newsroom on a scripted model: no API key needed')
    .option('--fast', 'no simulated model latency')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams demo'))
    .action(
      async (options: {
        fast?: boolean;
        store: string;
        postgres?: string;
        schema?: string;
        json?: boolean;
      }) => {
        const [{ DEMO_INPUT, DEMO_INTRO, demoOutro, demoTeam }, { FileStore }, { shellWord }, { runTeam }] =
          await Promise.all([
            import('./demo.js'),
            import('../store/file-store.js'),
            import('./resume-hint.js'),
            import('./run-team.js'),
          ]);
        if (options.postgres !== undefined || options.schema !== undefined) {
          throw new CliError('the demo runs on a store folder (--store), not on PostgreSQL');
        }
        const json = options.json === true;
        if (!json) process.stdout.write(DEMO_INTRO);
        const team = demoTeam(new FileStore({ root: options.store }), options.fast === true);
        // The demo always starts afresh, so the way on after Ctrl-C is to start it again.
        const again = ['npx', 'agent-teams', 'demo', ...(options.fast ? ['--fast'] : [])];
        if (options.store !== DEFAULT_STORE) again.push('--store', options.store);
        const code = await runTeam(team, {
          input: DEMO_INPUT,
          fresh: true,
          json,
          onAbort: `Start it again with: ${again.map(shellWord).join(' ')}`,
        });
        if (!json) process.stdout.write(demoOutro(process.cwd(), options.store));
        setExitCode(code);
      },
    );

  cli
    .command('init')
    .description('write a starter team file (a lead and two members) and a README on how to run it')
    .argument('[dir]', 'the folder to write into', DEFAULT_INIT_DIR)
    .addHelpText('after', example('npx agent-teams init', 'npx agent-teams init teams/support'))
    .action((dir: string) => {
      process.stdout.write(initTeam(dir));
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
      const { studioCommand } = await import('./studio.js');
      await studioCommand(file, options);
    });

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
        const { showTasks } = await inspect();
        await onStore(options, {}, (store) => showTasks(store, team, options.json === true));
      },
    );

  cli
    .command('inbox')
    .description('show the messages in an agent’s inbox, read and unread')
    .argument('<team>', 'the team')
    .argument('<agent>', 'the agent')
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addOption(jsonOption())
    .addHelpText('after', example('npx agent-teams inbox newsroom writer'))
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
      const { sendMessage } = await import('./send.js');
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
    .addOption(storeFlag())
    .addOption(postgresFlag())
    .addOption(schemaFlag())
    .addHelpText(
      'after',
      example('npx agent-teams respond software req-coder-2-1 --reject --feedback "Add tests"'),
    )
    .action(async (team: string, requestId: string, options: StoreFlags & RespondOptions) => {
      const { respond } = await import('./respond.js');
      await onStore(options, {}, (store) => respond(store, team, requestId, options));
    });

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
      const { runWorker } = await import('./worker.js');
      const controller = new AbortController();
      const stop = () => controller.abort();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      await runWorker(file, options, controller.signal);
    });

  return cli;
}

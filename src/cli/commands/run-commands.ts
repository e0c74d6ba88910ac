import { CliError } from '../cli-error.js';
import { type Command, Option } from '../commander.js';
import { requiredOption } from '../options.js';
import { DEFAULT_STORE } from '../resume-hint.js';
import { postgresFlag, schemaFlag, storeFlag } from '../store-choice.js';
import { example, jsonOption, onStore } from './command-kit.js';

// The commands that run teams: `run`, `resume`, `demo`, and `init` to start a team file.

/** The folder `agent-teams init` writes into when it is given none. */
const DEFAULT_INIT_DIR = 'agent-team';

/** Adds them to `cli`; an action that ends a run sets the exit code with `setExitCode`. */
export function addRunCommands(cli: Command, setExitCode: (code: number) => void): void {
  cli
    .command('run')
    .description('run a team from a team file, with a live view')
    .argument('<file>', 'a TypeScript or JavaScript file that exports `teams`')
    .addOption(requiredOption('--input <text>', 'the request for the lead'))
    .option('--team <name>', 'which of the file’s teams (needed when it exports several)')
    .option('--model <provider/model>', 'run every agent on this model instead (e.g. ollama/llama3.2)')
    .addOption(
      new Option(
        '--panes',
        'inside tmux: a pane per agent with its turns as they stream, beside the board',
      ).conflicts('json'),
    )
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
          panes?: boolean;
          store: string;
          postgres?: string;
          schema?: string;
          json?: boolean;
        },
      ) => {
        const [{ loadTeams, pickTeam }, { resumeCommand }, { runTeam }] = await Promise.all([
          import('../load-teams.js'),
          import('../resume-hint.js'),
          import('../run-team.js'),
        ]);
        const teams = await loadTeams(file);
        await onStore(options, { create: true }, async (store) => {
          let team = pickTeam(teams, file, options.team).withStore(store);
          if (options.model) team = team.withModel(options.model);
          const onAbort = `Continue it with: ${resumeCommand(file, options)}`;
          const json = options.json === true;
          const panes = options.panes === true;
          setExitCode(await runTeam(team, { input: options.input, fresh: true, json, panes, onAbort }));
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
        const [{ loadTeams, pickTeam }, { resumeCommand }, { runTeam }, { resumableRun }] = await Promise.all(
          [
            import('../load-teams.js'),
            import('../resume-hint.js'),
            import('../run-team.js'),
            import('../../run/resumable-run.js'),
          ],
        );
        const teams = await loadTeams(file);
        await onStore(options, {}, async (store) => {
          let team = pickTeam(teams, file, options.team).withStore(store);
          if (options.model) team = team.withModel(options.model);
          const last = await resumableRun(store, team.name);
          if (!last) {
            throw new CliError(
              `nothing to resume: the last run of ${team.name} finished (start a new one with agent-teams run)`,
            );
          }
          const onAbort = `Continue it with: ${resumeCommand(file, options)}`;
          setExitCode(
            await runTeam(team, { input: last.input, fresh: false, json: options.json === true, onAbort }),
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
            import('../demo.js'),
            import('../../store/file/file-store.js'),
            import('../resume-hint.js'),
            import('../run-team.js'),
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
    .action(async (dir: string) => {
      const { initTeam } = await import('../init.js');
      process.stdout.write(initTeam(dir));
    });
}

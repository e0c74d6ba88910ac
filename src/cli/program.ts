import { readFileSync } from 'node:fs';
import { Command } from './commander.js';
import { addInspectCommands } from './commands/inspect-commands.js';
import { addRunCommands } from './commands/run-commands.js';
import { addSteerCommands } from './commands/steer-commands.js';
import { addTaskCommands } from './commands/task-commands.js';
import { checkRequiredOptions } from './options.js';

const version = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** The `agent-teams` command. Each action answers its exit code. */
export function program(setExitCode: (code: number) => void): Command {
  const cli = new Command('agent-teams')
    .description(
      'Run teams of LLM agents: a lead plans tasks, members work them, everyone talks by messages.',
    )
    .version(version)
    .showHelpAfterError();
  checkRequiredOptions(cli);
  addRunCommands(cli, setExitCode);
  addSteerCommands(cli);
  addTaskCommands(cli);
  addInspectCommands(cli);
  return cli;
}

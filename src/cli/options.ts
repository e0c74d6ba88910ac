import { type Command, Option } from './commander.js';

// Commander checks required options before it looks for unknown ones, so a misspelt
// `--inptu` read as "required option '--input <text>' not specified". Required options are
// checked in a preAction hook instead: commander runs it after it has refused unknown
// options and checked the arguments, so a wrong flag is always reported as unknown first.
const required = new WeakSet<Option>();

/** An option the command cannot go without; `checkRequiredOptions` enforces it. */
export function requiredOption(flags: string, description: string): Option {
  const option = new Option(flags, description);
  required.add(option);
  return option;
}

/**
 * Makes every command under `cli` say a `requiredOption` is missing, with commander's own
 * message and exit code, only once it has found no unknown option and no missing argument.
 */
export function checkRequiredOptions(cli: Command): Command {
  return cli.hook('preAction', (_cli, command) => {
    for (const option of command.options) {
      if (required.has(option) && command.getOptionValue(option.attributeName()) === undefined) {
        command.error(`error: required option '${option.flags}' not specified`, {
          code: 'commander.missingMandatoryOptionValue',
        });
      }
    }
  });
}

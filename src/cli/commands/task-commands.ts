import type { Command } from 'commander';
import { requiredOption } from '../options.js';
import { postgresFlag, type StoreFlags, schemaFlag, storeFlag } from '../store-choice.js';
import type { TaskAddFlags, TaskAssignFlags, TaskEditFlags } from '../task-edits.js';
import { example, onStore } from './command-kit.js';

// `agent-teams task add|edit|assign|delete`: the person changes the board of a team's run.

const withStore = (command: Command) =>
  command.addOption(storeFlag()).addOption(postgresFlag()).addOption(schemaFlag());

/** Adds `task` and its four commands to `cli`. */
export function addTaskCommands(cli: Command): void {
  const task = cli
    .command('task')
    .description(
      'change the tasks of a team’s run as the person running it: add, edit, assign, delete (the lead’s rules apply)',
    )
    .addHelpText(
      'after',
      example(
        'npx agent-teams task add newsroom "Check the quotes" --assignee checker',
        'npx agent-teams task delete newsroom task-3 --reason "The editor cut that section"',
      ),
    );

  withStore(
    task
      .command('add')
      .description('put a task on the run’s list; members take it like any task')
      .argument('<team>', 'the team')
      .argument('<title>', 'the task’s title (≤300 characters)')
      .option('--description <text>', 'what to do and what to deliver (≤50000 characters)')
      .option('--depends-on <ids...>', 'tasks that must be completed first')
      .option('--assignee <member>', 'the member to give it to (anyone may take it if left out)')
      .option('--id <id>', 'an id instead of task-N')
      .option(
        '--file <file>',
        'the file that defines the team: its onTaskCreated hook judges the task, as it does the lead’s (a rejected task is not added)',
      )
      .addHelpText(
        'after',
        example('npx agent-teams task add newsroom "Check the quotes" --depends-on task-2'),
      ),
  ).action(async (team: string, title: string, options: StoreFlags & TaskAddFlags) => {
    const { addTaskCommand } = await import('../task-edits.js');
    await onStore(options, {}, (store) => addTaskCommand(store, team, title, options));
  });

  withStore(
    task
      .command('edit')
      .description(
        'change a pending task: its title, description, what it waits for, its member (a cycle, an unknown or a deleted task is refused)',
      )
      .argument('<team>', 'the team')
      .argument('<taskId>', 'the task')
      .option('--title <text>', 'its new title')
      .option('--description <text>', 'its new description')
      .option('--add-depends-on <ids...>', 'tasks it must now wait for')
      .option('--remove-depends-on <ids...>', 'tasks it no longer waits for')
      .option('--assignee <member>', 'the member to give it to')
      .addHelpText('after', example('npx agent-teams task edit newsroom task-4 --add-depends-on task-2')),
  ).action(async (team: string, taskId: string, options: StoreFlags & TaskEditFlags) => {
    const { editTaskCommand } = await import('../task-edits.js');
    await onStore(options, {}, (store) => editTaskCommand(store, team, taskId, options));
  });

  withStore(
    task
      .command('assign')
      .description(
        'give a pending task to a member (or to another one), both told; or with --none take a task back to the list, from the member working on it too (it is told)',
      )
      .argument('<team>', 'the team')
      .argument('<taskId>', 'the task')
      .argument('[member]', 'the member (not with --none)')
      .option('--none', 'give it to nobody: anyone may take it')
      .addHelpText(
        'after',
        example(
          'npx agent-teams task assign newsroom task-3 checker',
          'npx agent-teams task assign newsroom task-3 --none',
        ),
      ),
  ).action(
    async (
      team: string,
      taskId: string,
      member: string | undefined,
      options: StoreFlags & TaskAssignFlags,
    ) => {
      const { assignTaskCommand } = await import('../task-edits.js');
      await onStore(options, {}, (store) => assignTaskCommand(store, team, taskId, member, options));
    },
  );

  withStore(
    task
      .command('delete')
      .description(
        'delete a task, with the reason: it is kept as deleted and never done; tasks that waited for it no longer do (not while a member holds it)',
      )
      .argument('<team>', 'the team')
      .argument('<taskId>', 'the task')
      .addOption(requiredOption('--reason <text>', 'why it is no longer to be done (told to its members)'))
      .addHelpText('after', example('npx agent-teams task delete newsroom task-3 --reason "Out of scope"')),
  ).action(async (team: string, taskId: string, options: StoreFlags & { reason: string }) => {
    const { deleteTaskCommand } = await import('../task-edits.js');
    await onStore(options, {}, (store) => deleteTaskCommand(store, team, taskId, options.reason));
  });
}

import path from 'node:path';
import { tool } from 'ai';
import { z } from 'zod';
import { TeamError } from '../errors/index.js';
import { checkPattern, matchesGlob } from '../requests/glob.js';
import type { TurnGovernance } from './open-request.js';
import { checkPermission } from './permission.js';
import { governed } from './tool-answer.js';
import { toolInputSchema } from './tool-input.js';
import {
  readWorkspaceFile,
  readWorkspaceFolder,
  refuseHardLinked,
  writeWorkspaceFile,
} from './workspace-files.js';
import { resolveInWorkspace } from './workspace-paths.js';

/** Bounds the tool descriptions state too: one call never floods a prompt. */
const READ_CHARS = 50_000;
const WRITE_CHARS = 200_000;
const LISTED = 200;
const SCANNED = 20_000;

const pathField = z.string().describe('Path relative to the workspace root');
const readFileFields = z.strictObject({ path: pathField });
const writeFileFields = z.strictObject({
  path: pathField,
  content: z.string().describe(`The whole new content, ≤${WRITE_CHARS} characters`),
});
const editFileFields = z.strictObject({
  path: pathField,
  oldText: z.string().describe('Text that occurs exactly once in the file'),
  newText: z.string().describe('What replaces it'),
});
const listFilesFields = z.strictObject({
  pattern: z
    .string()
    .optional()
    .describe(
      'A glob of ≤500 characters: * within a folder, ** across folders (src/**/*.ts); every file if left out',
    ),
});

/**
 * Every file under the root (its real path) matching `pattern`, in name order; links are
 * listed, not followed, and a folder swapped for one while listing is skipped.
 */
async function listFiles(root: string, pattern: string): Promise<{ files: string[]; more: boolean }> {
  const files: string[] = [];
  const folders = [''];
  let scanned = 0;
  while (folders.length > 0 && scanned < SCANNED) {
    const folder = folders.shift() as string;
    const entries = (await readWorkspaceFolder(path.join(root, folder))) ?? [];
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      scanned++;
      const relative = folder ? `${folder}/${entry.name}` : entry.name;
      if (entry.isDirectory()) folders.push(relative);
      else if (matchesGlob(relative, pattern)) files.push(relative);
    }
  }
  files.sort();
  return { files: files.slice(0, LISTED), more: files.length > LISTED || folders.length > 0 };
}

/** The workspace's file tools, bound to the turn's agent; changes go through its permissions. */
export function workspaceTools(context: TurnGovernance) {
  const root = context.settings.workspaceRoot as string;
  // On a worker, each write first confirms the attempt still holds its turn (see TeamStore.holdTurn).
  const before = async () => {
    await context.store.holdTurn?.();
  };
  return {
    read_file: tool({
      description: `Read a file of the workspace (the first ${READ_CHARS} characters).`,
      inputSchema: toolInputSchema(readFileFields),
      execute: (input) =>
        governed('read_file', readFileFields, input, async ({ path: given }) => {
          const file = await resolveInWorkspace(root, given);
          const content = await readWorkspaceFile(file);
          const cut = content.length > READ_CHARS;
          return {
            path: file.relative,
            content: cut ? content.slice(0, READ_CHARS) : content,
            ...(cut ? { cutFrom: content.length } : {}),
          };
        }),
    }),
    list_files: tool({
      description: `List the workspace's files matching a glob (at most ${LISTED}).`,
      inputSchema: toolInputSchema(listFilesFields),
      execute: (input) =>
        governed('list_files', listFilesFields, input, async ({ pattern = '**' }) => {
          checkPattern('list_files', pattern);
          const { files, more } = await listFiles((await resolveInWorkspace(root, '.')).root, pattern);
          return { files, ...(more ? { note: 'More files than shown: narrow the pattern.' } : {}) };
        }),
    }),
    write_file: tool({
      description: `Write a whole file of the workspace (created with its folders if new; ≤${WRITE_CHARS} characters).`,
      inputSchema: toolInputSchema(writeFileFields),
      execute: (input) =>
        governed('write_file', writeFileFields, input, async ({ path: given, content }) => {
          if (content.length > WRITE_CHARS)
            throw new TeamError('invalid-input', `content is over ${WRITE_CHARS} characters.`);
          const file = await resolveInWorkspace(root, given);
          await refuseHardLinked(file);
          const refused = await checkPermission(context, 'write_file', file.relative, {
            path: given,
            content,
          });
          if (refused) return refused;
          await writeWorkspaceFile(file, content, { create: true, before });
          return { path: file.relative, written: content.length };
        }),
    }),
    edit_file: tool({
      description: `Replace text in a workspace file: oldText must occur exactly once, and the file stays ≤${WRITE_CHARS} characters.`,
      inputSchema: toolInputSchema(editFileFields),
      execute: (input) =>
        governed('edit_file', editFileFields, input, async ({ path: given, oldText, newText }) => {
          const file = await resolveInWorkspace(root, given);
          const content = await readWorkspaceFile(file);
          if (!oldText) throw new TeamError('invalid-input', 'oldText must not be empty.');
          const found = content.split(oldText).length - 1;
          if (found !== 1) {
            throw new TeamError(
              'invalid-input',
              found === 0
                ? `oldText does not occur in ${file.relative}: read the file and copy the text exactly.`
                : `oldText occurs ${found} times in ${file.relative}: give more of the text around it.`,
            );
          }
          const edited = content.replace(oldText, () => newText);
          if (edited.length > WRITE_CHARS) {
            throw new TeamError(
              'invalid-input',
              `The edit would make ${file.relative} ${edited.length} characters long, over the limit of ${WRITE_CHARS}: refused.`,
            );
          }
          await refuseHardLinked(file);
          const refused = await checkPermission(context, 'edit_file', file.relative, {
            path: given,
            oldText,
            newText,
          });
          if (refused) return refused;
          await writeWorkspaceFile(file, edited, { create: false, before });
          return { path: file.relative, replaced: 1 };
        }),
    }),
  };
}

import { createRequire } from 'node:module';

// commander is CommonJS: required here rather than imported, so that Node does not lex its
// source for named exports at every start of the command (a few ms of `tasks`' ~125 ms).
const commander = createRequire(import.meta.url)('commander') as typeof import('commander');

export const { Command, Option } = commander;
export type Command = import('commander').Command;
export type Option = import('commander').Option;

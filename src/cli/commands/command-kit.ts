import type { TeamStore } from '../../store/team-store.js';
import { Option } from '../commander.js';
import { chooseStore, type StoreFlags } from '../store-choice.js';

// What the command's definitions share. Each action imports what it uses when it runs, so
// that `--help` loads commander and these files, and the inspection commands the store
// without the AI SDK, the providers or jiti.

export const inspect = () => import('../inspect.js');

export const jsonOption = () => new Option('--json', 'one JSON object per line');
export const example = (...lines: string[]) =>
  `\nExample:\n${lines.map((line) => `  $ ${line}`).join('\n')}\n`;

/** Runs `work` on the chosen store, and closes the store after (its connections, its watches). */
export async function onStore(
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

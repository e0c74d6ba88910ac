// Start-up time of the command: `--help` and `tasks` (on a store the demo leaves) against a
// bare `node -e 0`, on the build in dist/ (run `npm run build` first). With hyperfine it runs
// each 30 times after 3 warm-ups. Reports the median wall time and
// the mean CPU time (user + system, hyperfine only): on a busy machine the CPU time is the
// steadier figure, since the wall time includes waiting for a core. Without hyperfine, 30
// rounds of the three, interleaved. Run: npm run bench:cli
// (or `npm run bench:cli -- <another build's dist/cli/main.js>`, to compare with it).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = path.resolve(process.argv[2] ?? fileURLToPath(new URL('../dist/cli/main.js', import.meta.url)));
const store = mkdtempSync(path.join(tmpdir(), 'cli-startup-'));
execFileSync(process.execPath, [cli, 'demo', '--fast'], { cwd: store, stdio: 'ignore' });

const commands: Array<[string, string[]]> = [
  ['node -e 0', ['-e', '0']],
  ['agent-teams --help', [cli, '--help']],
  ['agent-teams tasks', [cli, 'tasks']],
];

interface Figure {
  readonly medianMs: number;
  readonly cpuMs: number | undefined;
}

function withHyperfine(): Figure[] | undefined {
  if (spawnSync('hyperfine', ['--version']).status !== 0) return undefined;
  const json = path.join(store, 'hyperfine.json');
  const shell = (args: string[]) => [process.execPath, ...args].map((word) => `'${word}'`).join(' ');
  execFileSync(
    'hyperfine',
    [
      '-N',
      '--warmup',
      '3',
      '--runs',
      '30',
      '--export-json',
      json,
      ...commands.map(([, args]) => shell(args)),
    ],
    { cwd: store, stdio: 'ignore' },
  );
  const results = (
    JSON.parse(readFileSync(json, 'utf8')) as { results: { median: number; user: number; system: number }[] }
  ).results;
  return results.map((result) => ({
    medianMs: result.median * 1000,
    cpuMs: (result.user + result.system) * 1000,
  }));
}

/** Without hyperfine: 30 rounds, each running every command once, so a load that comes and goes weighs on all alike. */
function byHand(): Figure[] {
  const times: number[][] = commands.map(() => []);
  for (let round = 0; round < 30; round++) {
    commands.forEach(([, args], index) => {
      const start = process.hrtime.bigint();
      spawnSync(process.execPath, args, { cwd: store, stdio: 'ignore' });
      times[index]?.push(Number(process.hrtime.bigint() - start) / 1e6);
    });
  }
  return times.map((runs) => {
    runs.sort((a, b) => a - b);
    return { medianMs: ((runs[14] ?? 0) + (runs[15] ?? 0)) / 2, cpuMs: undefined };
  });
}

const figures = withHyperfine() ?? byHand();
rmSync(store, { recursive: true, force: true });
const [bare] = figures as [Figure];
const ms = (value: number | undefined) => (value === undefined ? '–' : value.toFixed(0));
const ratio = (value: number | undefined, base: number | undefined) =>
  value === undefined || base === undefined ? '–' : `${(value / base).toFixed(2)}x`;
console.log(`node ${process.version}, ${cpus().length} cores, ${cpus()[0]?.model ?? ''}\n`);
console.log('| command | median wall ms | vs node -e 0 | mean CPU ms | vs node -e 0 |');
console.log('| --- | ---: | ---: | ---: | ---: |');
figures.forEach((figure, index) => {
  const name = commands[index]?.[0];
  console.log(
    `| ${name} | ${ms(figure.medianMs)} | ${ratio(figure.medianMs, bare.medianMs)} | ${ms(figure.cpuMs)} | ${ratio(figure.cpuMs, bare.cpuMs)} |`,
  );
});

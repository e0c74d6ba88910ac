import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest, longest first: started first, so that the run does not end
 * with one of them going alone on one core while the other waits. Vitest orders by the
 * durations it remembers from the last run; on a clean clone (CI) it knows none and runs the
 * largest files first, which puts these small files, the longest of all, last.
 */
const SLOWEST = [
  'test/scenarios/lifecycle-kills-postgres.test.ts',
  'test/scenarios/lifecycle-kills-file.test.ts',
  'test/scenarios/chaos-file.test.ts',
  'test/scenarios/postgres.test.ts',
  'test/scenarios/kill-resume.test.ts',
  'test/scenarios/chaos-memory.test.ts',
];

const rank = (spec: TestSpecification) => {
  const at = SLOWEST.findIndex((file) => spec.moduleId.endsWith(file));
  return at === -1 ? SLOWEST.length : at;
};

/** Vitest's order, with the slowest files ahead of every other (each project's files share one queue). */
export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((spec, index) => ({ spec, index }))
      .sort((a, b) => rank(a.spec) - rank(b.spec) || a.index - b.index)
      .map(({ spec }) => spec);
  }
}

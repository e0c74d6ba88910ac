// Prints "N passed, N failed" from vitest's JSON report. A test file that failed to load
// has no tests in the report: it counts as one failure, so a broken file never reads as green.
import { readFileSync } from 'node:fs';

let report;
try {
  report = JSON.parse(readFileSync(process.argv[2] ?? '.vitest-results.json', 'utf8'));
} catch {
  console.log('0 passed, 1 failed');
  process.exit(0);
}
let passed = 0;
let failed = 0;
for (const file of report.testResults ?? []) {
  const tests = file.assertionResults ?? [];
  passed += tests.filter((test) => test.status === 'passed').length;
  failed += tests.filter((test) => test.status === 'failed').length;
  if (file.status === 'failed' && tests.every((test) => test.status !== 'failed')) failed += 1;
}
if (report.numTotalTestSuites === 0 || report.success === false) failed = Math.max(failed, 1);
console.log(`${passed} passed, ${failed} failed`);

// A software team in a workspace, under governance: a lead plans a change for a coder, a
// tester and a reviewer, who edit files in one folder. The coder submits a plan first and
// writes under src/ once the lead grants it; anyone may write tests; the reviewer asks the
// person before it writes; a coding task without a test for each source file is not done.
// With OPENAI_API_KEY set (the folder is made when missing):
//   node --import tsx examples/software-team.ts ./app "Add a slugify function"
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { Agent, type HookContext, Team, type TeamTask } from 'agent-teams';

const model = process.env.AGENT_TEAMS_MODEL ?? 'openai/gpt-5.5';

/**
 * The completion hook: a task the coder completes is done only once every source file under
 * src/ has its test under test/ (src/a/b.ts needs test/a/b.test.ts). The feedback goes back to
 * the coder, whose task stays in progress, with another turn to write it.
 */
export function requireTests(root: string) {
  return (_task: TeamTask, context: HookContext): string | undefined => {
    if (context.agent !== 'coder') return undefined;
    const sources = filesUnder(root, 'src').filter((file) => file.endsWith('.ts'));
    const missing = sources
      .map((file) => `test/${file.slice('src/'.length, -'.ts'.length)}.test.ts`)
      .filter((test) => !existsSync(path.join(root, test)));
    return missing.length > 0
      ? `No tests yet: write ${missing.join(', ')} before you complete the task.`
      : undefined;
  };
}

function filesUnder(root: string, folder: string): string[] {
  const start = path.join(root, folder);
  if (!existsSync(start)) return [];
  return readdirSync(start, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
    .sort();
}

/** The team, working in `root` (an existing folder). */
export function softwareTeam(root: string): Team {
  const lead = new Agent({
    name: 'lead',
    model,
    instructions:
      'Plan the change as three tasks: one for the coder (the code under src/), one for the tester ' +
      '(tests under test/, after the code), one for the reviewer (after both). When the coder asks you ' +
      'to approve its plan, and the plan is sound, grant it src/** with grant_paths and approve it with ' +
      'answer_request. At the end, report what was built, tested and reviewed.',
    maxIterations: 12,
  });
  const coder = new Agent({
    name: 'coder',
    model,
    description: 'Writes the code under src/, with a test for each file',
    instructions: 'Write small, plain TypeScript. Each file src/x.ts gets its test test/x.test.ts.',
    requirePlanApproval: true,
    permissionMode: 'delegatedByTeamLead',
  });
  const tester = new Agent({
    name: 'tester',
    model,
    description: 'Writes tests under test/ for the edge cases',
    instructions: 'Read the code, then add tests for its edge cases under test/.',
  });
  const reviewer = new Agent({
    name: 'reviewer',
    model,
    description: 'Reads the code and the tests and writes a review to docs/review.md',
    instructions: 'Read everything under src/ and test/, then write your review to docs/review.md.',
  });
  return new Team({
    name: 'software',
    lead,
    members: [coder, tester, reviewer],
    workspace: { root },
    // Tests are cheap: anyone may write them. src/ is the lead's to grant; the rest asks the person.
    permissions: { allowedPaths: [{ path: 'test/**', tool: '*', reason: 'tests are cheap' }] },
    hooks: { onTaskCompleted: requireTests(root) },
    maxTurnsPerMember: 6,
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(process.argv[2] ?? 'app');
  mkdirSync(root, { recursive: true });
  const team = softwareTeam(root);
  const run = await team.start({ input: process.argv[3] ?? 'Add a slugify function' });
  const terminal = createInterface({ input: process.stdin, output: process.stdout });
  for await (const event of run.events()) {
    if (event.type === 'team:task-claimed')
      console.log(`${event.data.member} works on ${event.data.task.title}`);
    if (event.type === 'team:hook-rejected') console.log(`${event.data.agent}: ${event.data.feedback}`);
    if (event.type !== 'team:request-opened' || event.data.to !== 'user') continue;
    const answer = await terminal.question(`${event.data.subject}. Approve? [y/n] `);
    await run.respond(event.data.requestId, { approve: answer.trim().toLowerCase().startsWith('y') });
  }
  terminal.close();
  console.log((await run.result).output);
}

// KaibanJS on a bench workload, as `npm run bench:makespan` runs it beside agent-teams: the same
// tasks and dependencies, 3 agents (task i on agent i mod 3: KaibanJS assigns tasks when they are
// defined), every task parallel-allowed, and a model that answers each call with the final
// answer after the task's model time. Prints the first run's ms (a fresh process) and then a
// second run's (warm), one per line.
// Run: node run.mjs '<workload json: [{ id, dependsOn, ms }]>'
import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage } from '@langchain/core/messages';
import { Agent, Task, Team } from 'kaibanjs';

const workload = JSON.parse(process.argv[2]);
const msOf = new Map(workload.map((task) => [task.id, task.ms]));

/** The task a call is for: its briefing names it as [[id]]; other tasks' results may too, later. */
function taskOf(messages) {
  const briefing = messages.find((message) => message._getType() === 'human');
  return /\[\[(.+?)\]\]/.exec(String(briefing?.content))?.[1];
}

class PacedModel extends BaseChatModel {
  calls = 0;
  _llmType() {
    return 'paced';
  }
  async _generate(messages) {
    this.calls++;
    await new Promise((resolve) => setTimeout(resolve, msOf.get(taskOf(messages)) ?? 0));
    const text = JSON.stringify({ finalAnswer: 'done' });
    return { generations: [{ text, message: new AIMessage(text) }], llmOutput: {} };
  }
}

async function once() {
  const model = new PacedModel({});
  const agents = ['m1', 'm2', 'm3'].map(
    (name) => new Agent({ name, role: 'worker', goal: 'Do the tasks.', background: '', llmInstance: model }),
  );
  const tasks = workload.map(
    (task, index) =>
      new Task({
        referenceId: task.id,
        description: `Do [[${task.id}]].`,
        expectedOutput: 'done',
        agent: agents[index % agents.length],
        dependencies: task.dependsOn,
        allowParallelExecution: true,
      }),
  );
  const team = new Team({ name: 'bench', agents, tasks, logLevel: 'error' });
  const start = performance.now();
  const result = await team.start();
  const ms = performance.now() - start;
  if (result.status !== 'FINISHED') throw new Error(`KaibanJS ended ${result.status}`);
  if (model.calls < workload.length)
    throw new Error(`KaibanJS made ${model.calls} calls for ${workload.length} tasks`);
  return ms;
}

console.log(String(await once()));
console.log(String(await once()));

import type { TeamTask } from '../../board/task.js';
import type { RunState } from '../../fold/run-state.js';
import { VirtualList } from './virtual-list.js';

const COLUMNS = [
  { status: 'pending', title: 'Pending' },
  { status: 'in_progress', title: 'In progress' },
  { status: 'completed', title: 'Completed' },
] as const;

function TaskCard({ task }: { task: TeamTask }) {
  const who = task.owner ?? (task.assignee ? `for ${task.assignee}` : 'anyone');
  return (
    <div className="task" data-task={task.id} title={task.result ?? task.description}>
      <div className="task-head">
        <span className="task-id">{task.id}</span> {task.title}
      </div>
      <div className="task-meta">
        {task.closed ? 'closed · ' : ''}
        {who}
        {task.dependsOn.length ? ` · after ${task.dependsOn.join(', ')}` : ''}
      </div>
      {task.result ? <div className="task-result">{task.result}</div> : null}
    </div>
  );
}

/** The task list in its three columns, each virtualised. */
export function TaskColumns({ state }: { state: RunState }) {
  const tasks = [...state.tasks.values()];
  return (
    <section className="columns">
      {COLUMNS.map(({ status, title }) => {
        const inColumn = tasks.filter((task) => task.status === status);
        return (
          <div key={status} className="column" data-column={status}>
            <h3>
              {title} <span className="count">{inColumn.length}</span>
            </h3>
            <VirtualList
              label={`${title} tasks`}
              items={inColumn}
              rowHeight={78}
              height={260}
              render={(task) => <TaskCard task={task} />}
            />
          </div>
        );
      })}
    </section>
  );
}

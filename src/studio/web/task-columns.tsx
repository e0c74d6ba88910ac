import type { TeamTask } from '../../board/task.js';
import type { RunState } from '../../fold/run-state.js';
import { VirtualList } from './virtual-list.js';

const COLUMNS = [
  { status: 'pending', title: 'Pending' },
  { status: 'in_progress', title: 'In progress' },
  { status: 'completed', title: 'Completed' },
  { status: 'deleted', title: 'Deleted' },
] as const;

/** What the person may do to a task from its card (while the run goes). */
interface CardActions {
  /** Opens the edit dialog of a pending task. */
  readonly onEdit?: (taskId: string) => void;
  /** Takes a task in progress back to the list, from its member. */
  readonly onTakeBack?: (taskId: string) => void;
}

function TaskCard({ task, onEdit, onTakeBack }: { task: TeamTask } & CardActions) {
  const who = task.owner ?? (task.assignee ? `for ${task.assignee}` : 'anyone');
  const deleted = task.status === 'deleted' ? `deleted: ${task.note ?? ''}` : null;
  return (
    <div className="task" data-task={task.id} title={deleted ?? task.result ?? task.description}>
      <div className="task-head">
        {onEdit && task.status === 'pending' ? (
          <button
            type="button"
            className="link"
            aria-label={`Edit ${task.id}`}
            onClick={() => onEdit(task.id)}
          >
            Edit
          </button>
        ) : null}
        {onTakeBack && task.status === 'in_progress' ? (
          <button
            type="button"
            className="link"
            aria-label={`Take back ${task.id}`}
            title={`Take it from ${task.owner ?? 'its member'}, back to the list for anyone`}
            onClick={() => onTakeBack(task.id)}
          >
            Take back
          </button>
        ) : null}
        <span className="task-id">{task.id}</span> {task.title}
      </div>
      <div className="task-meta">
        {task.closed ? 'closed · ' : ''}
        {who}
        {task.dependsOn.length ? ` · after ${task.dependsOn.join(', ')}` : ''}
      </div>
      {deleted || task.result ? <div className="task-result">{deleted ?? task.result}</div> : null}
    </div>
  );
}

/**
 * The task list in its columns, each virtualised; the deleted tasks' column only once there
 * are some. With `onEdit`, each pending task has an Edit button; with `onTakeBack`, each task
 * in progress a Take back button (see board-editor.tsx).
 */
export function TaskColumns({ state, ...actions }: { state: RunState } & CardActions) {
  const tasks = [...state.tasks.values()];
  const anyDeleted = tasks.some((task) => task.status === 'deleted');
  return (
    <section className="columns">
      {COLUMNS.filter(({ status }) => status !== 'deleted' || anyDeleted).map(({ status, title }) => {
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
              render={(task) => <TaskCard task={task} {...actions} />}
            />
          </div>
        );
      })}
    </section>
  );
}

import { type FormEvent, useState } from 'react';
import type { TeamTask } from '../../board/task.js';
import { departed, type RunState } from '../../fold/run-state.js';
import { addTask, deleteTask, editTask, type TaskEditFields } from './board-api.js';
import { TaskColumns } from './task-columns.js';

// The person at the board of a going run: add a task, and edit, give or delete a pending one;
// take one a member works on back to the list (the lead's release). Each is a commit of the board's rules as `user`; a refusal shows the rule's reason and
// changes nothing. The columns change when the run's events say so.

/** Task ids as the person types them: `task-1, task-2` or `task-1 task-2`. */
function idsOf(text: string): string[] {
  return text.split(/[\s,]+/).filter((id) => id !== '');
}

function membersOf(state: RunState): string[] {
  return [...state.agents.values()]
    .filter((agent) => agent.role === 'member' && !departed(agent))
    .map((agent) => agent.name);
}

/** What the page sends for `task` edited to these fields: only what changed. */
function changesOf(
  task: TeamTask,
  fields: { title: string; description: string; dependsOn: string; assignee: string },
): TaskEditFields {
  const wanted = idsOf(fields.dependsOn);
  const added = wanted.filter((id) => !task.dependsOn.includes(id));
  const removed = task.dependsOn.filter((id) => !wanted.includes(id));
  return {
    ...(fields.title.trim() !== task.title ? { title: fields.title } : {}),
    ...(fields.description !== task.description ? { description: fields.description } : {}),
    ...(added.length > 0 ? { addDependsOn: added } : {}),
    ...(removed.length > 0 ? { removeDependsOn: removed } : {}),
    // "anyone" (the empty choice) takes the task back to the list.
    ...(fields.assignee !== (task.assignee ?? '') ? { assignee: fields.assignee || null } : {}),
  };
}

/** The edit of one pending task: its text, what it waits for and its member; or its deletion, with a reason. */
function TaskDialog({
  runId,
  task,
  members,
  onClose,
}: {
  runId: string;
  task: TeamTask;
  members: readonly string[];
  onClose: () => void;
}) {
  const [title, setTitle] = useState(task.title);
  const [description, setDescription] = useState(task.description);
  const [dependsOn, setDependsOn] = useState(task.dependsOn.join(', '));
  const [assignee, setAssignee] = useState(task.assignee ?? '');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const act = async (work: () => Promise<unknown>) => {
    try {
      await work();
      onClose();
    } catch (error) {
      setNote((error as Error).message);
    }
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    const changes = changesOf(task, { title, description, dependsOn, assignee });
    if (Object.keys(changes).length === 0) setNote('Nothing changed.');
    else void act(() => editTask(runId, task.id, changes));
  };
  return (
    <section className="panel board-editor task-dialog" role="dialog" aria-label={`Edit ${task.id}`}>
      <h3>
        Edit {task.id} <span className="count">{task.status}</span>
      </h3>
      <form className="board-editor" onSubmit={save}>
        <input
          type="text"
          aria-label="Title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <textarea
          aria-label="Description"
          value={description}
          onChange={(event) => setDescription(event.target.value)}
        />
        <div className="fields">
          <input
            type="text"
            aria-label="Waits for"
            placeholder="waits for (task ids)"
            value={dependsOn}
            onChange={(event) => setDependsOn(event.target.value)}
          />
          <select
            aria-label="Assignee"
            value={assignee}
            onChange={(event) => setAssignee(event.target.value)}
          >
            <option value="">anyone</option>
            {members.map((member) => (
              <option key={member}>{member}</option>
            ))}
          </select>
          <button type="submit">Save</button>
          <button type="button" onClick={onClose}>
            Close
          </button>
        </div>
      </form>
      <div className="fields">
        <input
          type="text"
          aria-label="Reason for deleting"
          placeholder="why it is no longer needed"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
        <button
          type="button"
          className="danger"
          disabled={!reason.trim()}
          onClick={() => void act(() => deleteTask(runId, task.id, reason))}
        >
          Delete task
        </button>
      </div>
      {note ? (
        <p className="error" role="alert">
          {note}
        </p>
      ) : null}
    </section>
  );
}

/** The person's new task: its title, description, what it waits for and its member. */
function AddTaskForm({ runId, members }: { runId: string; members: readonly string[] }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [dependsOn, setDependsOn] = useState('');
  const [assignee, setAssignee] = useState('');
  const [note, setNote] = useState('');
  const add = async (event: FormEvent) => {
    event.preventDefault();
    try {
      const { task } = await addTask(runId, {
        title,
        ...(description ? { description } : {}),
        ...(idsOf(dependsOn).length > 0 ? { dependsOn: idsOf(dependsOn) } : {}),
        ...(assignee ? { assignee } : {}),
      });
      setNote(`added ${task.id}`);
      setTitle('');
      setDescription('');
      setDependsOn('');
    } catch (error) {
      setNote((error as Error).message);
    }
  };
  return (
    <form className="panel board-editor" aria-label="Add a task" onSubmit={(event) => void add(event)}>
      <h3>Add a task</h3>
      <div className="fields">
        <input
          type="text"
          aria-label="New task title"
          placeholder="title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
        />
        <input
          type="text"
          aria-label="New task waits for"
          placeholder="waits for (task ids)"
          value={dependsOn}
          onChange={(event) => setDependsOn(event.target.value)}
        />
        <select
          aria-label="New task assignee"
          value={assignee}
          onChange={(event) => setAssignee(event.target.value)}
        >
          <option value="">anyone</option>
          {members.map((member) => (
            <option key={member}>{member}</option>
          ))}
        </select>
        <button type="submit" disabled={!title.trim()}>
          Add task
        </button>
        <span className="note" role="status">
          {note}
        </span>
      </div>
      <textarea
        aria-label="New task description"
        placeholder="what to do and what to deliver (optional)"
        value={description}
        onChange={(event) => setDescription(event.target.value)}
      />
    </form>
  );
}

/**
 * The task columns and, while the page follows a going run, the person's board editing: an
 * Edit button on each pending task (its dialog edits, gives or deletes it), a Take back button
 * on each task in progress, and a form to add one.
 */
export function Board({ runId, state, live }: { runId: string; state: RunState; live: boolean }) {
  const [editing, setEditing] = useState<string | null>(null);
  const [refused, setRefused] = useState('');
  const task = editing === null ? undefined : state.tasks.get(editing);
  const members = membersOf(state);
  const takeBack = (taskId: string) =>
    void editTask(runId, taskId, { assignee: null }).then(
      () => setRefused(''),
      (error: Error) => setRefused(error.message),
    );
  return (
    <>
      <TaskColumns state={state} {...(live ? { onEdit: setEditing, onTakeBack: takeBack } : {})} />
      {refused ? (
        <p className="error" role="alert">
          {refused}
        </p>
      ) : null}
      {live && task ? (
        <TaskDialog
          key={task.id}
          runId={runId}
          task={task}
          members={members}
          onClose={() => setEditing(null)}
        />
      ) : null}
      {live ? <AddTaskForm runId={runId} members={members} /> : null}
    </>
  );
}

export type { DeletedTask } from './delete.js';
export { type BlackboardConfig, InMemoryBlackboard } from './in-memory-blackboard.js';
export type { NewTask, TaskChange, TaskEdit, TaskEditField, TaskStatus, TeamTask } from './task.js';
export type { TaskListOptions } from './task-list-state.js';
export { type TaskBoardConfig, type TaskBoardOptions, TeamTaskBoard } from './team-task-board.js';

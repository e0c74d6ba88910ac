import { InMemoryBlackboard, InMemoryMessageBus, TeamMailbox, TeamTaskBoard } from 'agent-teams';
const blackboard = new InMemoryBlackboard({ enabled: true, sections: {} });
const board = TeamTaskBoard.initialize(blackboard, undefined, { lead: 'editor', members: ['researcher', 'writer'] });
const research = board.createTask({ title: 'Research tides' }, 'editor');          // task-1
board.createTask({ title: 'Write', dependsOn: [research.id], assignee: 'writer' }, 'editor');
board.claimTask('researcher');                                                      // task-1, in progress
board.updateTask(research.id, { status: 'completed', result: 'The moon pulls the sea' }, 'researcher');
board.claimableBy('writer');                                                        // [task-2]
const mailbox = new TeamMailbox(new InMemoryMessageBus({ enabled: true }), undefined,
  { lead: 'editor', members: ['researcher', 'writer'] });
await mailbox.send('researcher', 'writer', 'Notes are in task-1');
mailbox.take('writer');   // [{ from: 'researcher', fromAgent: true, content: 'Notes are in task-1', ... }]

// Below the snippet: print what it did.
for (const task of board.listTasks()) console.log(`${task.id} [${task.status}] ${task.title} ${task.result ?? ''}`);
console.log(`writer's inbox after take: ${mailbox.unread('writer').length} unread`);

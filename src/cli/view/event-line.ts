import type { TeamEvent } from '../../events/team-event-map.js';
import { count, money, seconds, shorten } from './format.js';

/** One plain line for an event, for output that is not a terminal; `undefined` to skip it. */
export function eventLine(event: TeamEvent, startedAt: number): string | undefined {
  const at = `[${seconds(Date.parse(event.timestamp) - startedAt).padStart(7)}]`;
  const say = (text: string) => `${at} ${shorten(text, 200)}`;
  switch (event.type) {
    case 'team:start':
      return say(`${event.team}: ${event.data.lead} leads ${event.data.members.join(', ')}`);
    case 'team:resumed':
      return say(
        `resumed${event.data.requeued.length ? `; back on the list: ${event.data.requeued.join(', ')}` : ''}`,
      );
    case 'team:member-started':
      return say(
        `${event.data.member} starts a ${event.data.reason} turn${event.data.taskId ? ` on ${event.data.taskId}` : ''}`,
      );
    case 'team:member-finished':
      return event.data.error ? say(`${event.data.member} failed: ${event.data.error}`) : undefined;
    case 'team:task-created':
      return say(`${event.data.by} created ${event.data.task.id}: ${event.data.task.title}`);
    case 'team:task-assigned':
      return say(`${event.data.by} gave ${event.data.task.id} to ${event.data.assignee}`);
    case 'team:task-claimed':
      return say(`${event.data.member} works on ${event.data.task.id}: ${event.data.task.title}`);
    case 'team:task-updated':
      return event.data.from !== event.data.to
        ? say(`${event.data.by} put ${event.data.task.id} back to ${event.data.to}`)
        : say(`${event.data.by} noted on ${event.data.task.id}: ${event.data.task.note ?? ''}`);
    case 'team:task-completed': {
      const how = event.data.task.closed ? 'closed' : 'completed';
      const freed = event.data.unblocked.length ? `; unblocks ${event.data.unblocked.join(', ')}` : '';
      return say(`${event.data.by} ${how} ${event.data.task.id}${freed}`);
    }
    case 'team:task-edited': {
      const { by, task, fields, addedDependsOn, removedDependsOn } = event.data;
      const changes = [
        ...fields.filter((field) => field !== 'dependsOn').map((field) => `its ${field}`),
        ...(addedDependsOn.length ? [`it waits for ${addedDependsOn.join(', ')}`] : []),
        ...(removedDependsOn.length ? [`it no longer waits for ${removedDependsOn.join(', ')}`] : []),
      ];
      return say(`${by} changed ${task.id}: ${changes.join('; ')}`);
    }
    case 'team:task-deleted': {
      const { by, task, reason, dependents } = event.data;
      const freed = dependents.length ? `; ${dependents.join(', ')} no longer wait for it` : '';
      return say(`${by} deleted ${task.id} (${reason})${freed}`);
    }
    case 'team:message-sent':
      return say(`${event.data.from} → ${event.data.to.join(', ')}: ${event.data.content}`);
    case 'team:tool-called':
      return say(`${event.data.agent} calls ${event.data.toolName} ${event.data.input}`);
    case 'team:tool-result':
      return event.data.isError
        ? say(`${event.data.agent}: ${event.data.toolName} failed: ${event.data.output}`)
        : undefined;
    // The rest of a transcript is for `logs --agent`; live text is for the live view.
    case 'team:turn-prompt':
    case 'team:turn-text':
    case 'team:text-delta':
    case 'team:turn-usage':
    case 'team:turn-outcome':
      return undefined;
    case 'team:member-joined': {
      const { by, definition } = event.data;
      const spawned = by ? `, spawned by ${by}${definition ? ` as ${definition}` : ''}` : '';
      return say(`${event.data.member} joined the team (${event.data.model}${spawned})`);
    }
    case 'team:shutdown-requested':
      return say(
        `${event.data.member} is ${event.data.force ? 'stopped' : 'asked to shut down'}${event.data.by ? ` by ${event.data.by}` : ''}${event.data.reason ? `: ${event.data.reason}` : ''}`,
      );
    case 'team:shutdown-rejected':
      return say(`${event.data.member} rejects its shutdown: ${event.data.reason}`);
    case 'team:member-shutdown': {
      const back = event.data.requeued.length ? `; back on the list: ${event.data.requeued.join(', ')}` : '';
      return say(`${event.data.member} ${event.data.removed ? 'left the team' : 'shut down'}${back}`);
    }
    case 'team:hook-rejected':
      return say(
        `${event.data.hook} rejected ${event.data.taskId ?? event.data.agent}: ${event.data.feedback}`,
      );
    case 'team:budget-reached': {
      const { agent, bound, limit, used } = event.data;
      return say(
        `${agent ?? 'the run'} reached its budget: ${bound} ${limit} (used ${Math.round(used * 1e4) / 1e4})`,
      );
    }
    case 'team:request-opened':
      return say(
        `${event.data.from} asks ${event.data.to} (${event.data.kind}, ${event.data.requestId}): ${event.data.subject}`,
      );
    case 'team:request-answered':
      return say(
        `${event.data.by} ${event.data.approve ? 'approved' : 'rejected'} ${event.data.requestId}` +
          (event.data.always ? ' (always)' : '') +
          (event.data.feedback ? `: ${event.data.feedback}` : ''),
      );
    case 'team:approved-call-ran':
      return say(`ran ${event.data.agent}'s approved ${event.data.tool} (${event.data.requestId})`);
    case 'team:request-forwarded':
      return say(`${event.data.requestId} goes to the ${event.data.to}: ${event.data.reason}`);
    case 'team:request-expired':
      return say(`${event.data.requestId} expired: ${event.data.feedback}`);
    case 'team:question-expired':
      return say(
        `${event.data.member}'s question to ${event.data.to.join(', ')} got no answer in time: it goes on`,
      );
    case 'team:paths-granted':
      return say(
        `${event.data.by} lets ${event.data.member} ${event.data.tool} ${event.data.paths.join(', ')}`,
      );
    case 'team:abort-requested':
      return say(
        `${event.data.by} asked the run to stop${event.data.reason ? `: ${event.data.reason}` : ''}`,
      );
    case 'team:run-ending':
      return say(
        `the work is over (${event.data.stopReason})${event.data.synthesis === 'none' ? '' : '; the lead writes the final answer'}`,
      );
    case 'team:synthesis-planned':
      return say(`the final answer goes in ${event.data.parts.length} more part(s)`);
    case 'team:store-outage': {
      const { began, ended, waitMs, error } = event.data;
      return ended === null
        ? say(`the store cannot be reached (${error}): the run waits for it, up to ${seconds(waitMs)}`)
        : say(`the store answers again, after ${seconds(Date.parse(ended) - Date.parse(began))}`);
    }
    case 'team:error':
      return say(`${event.data.source}: ${event.data.message} (tried again)`);
    case 'team:complete': {
      const { stopReason, tasks, leadTurns, memberTurns } = event.data;
      return say(
        // A log written before tasks could be deleted counts none.
        `${stopReason}: ${tasks.completed}/${tasks.total - (tasks.deleted ?? 0)} tasks done, ${leadTurns} lead and ${memberTurns} member turns` +
          (event.data.error ? `; ${event.data.error}` : ''),
      );
    }
  }
}

export function usageLine(tokens: number, cost: number | undefined): string {
  return `${count(tokens)} tokens, ${money(cost)}`;
}

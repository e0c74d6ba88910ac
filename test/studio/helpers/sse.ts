import type { TeamEvent } from 'agent-teams';

/**
 * Reads a run's event stream (`GET /api/runs/:runId/events`) as a client would, until
 * `until` holds for an event read; answers every event read, in order, and the ids the
 * stream gave them.
 */
export async function readStream(
  url: string,
  options: { headers?: Record<string, string>; until: (event: TeamEvent, all: TeamEvent[]) => boolean },
): Promise<{ events: TeamEvent[]; ids: string[] }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers: options.headers, signal: controller.signal });
  if (response.status !== 200 || !response.body) throw new Error(`the stream answered ${response.status}`);
  const events: TeamEvent[] = [];
  const ids: string[] = [];
  const decoder = new TextDecoder();
  let buffer = '';
  try {
    for await (const chunk of response.body) {
      buffer += decoder.decode(chunk as Uint8Array, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf('\n\n');
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data: '))
          .map((line) => line.slice(6))
          .join('\n');
        if (!data) continue;
        const event = JSON.parse(data) as TeamEvent;
        events.push(event);
        ids.push(block.match(/^id: (.*)$/m)?.[1] ?? '');
        if (options.until(event, events)) return { events, ids };
      }
    }
  } finally {
    controller.abort();
  }
  throw new Error(`the stream ended after ${events.length} events`);
}

/**
 * Reads a run's event stream until the Studio ends it: answers the events, their ids and the
 * stream's whole text.
 */
export async function readToEnd(
  url: string,
  options: { headers?: Record<string, string> },
): Promise<{ events: TeamEvent[]; ids: string[]; text: string }> {
  const response = await fetch(url, { headers: options.headers });
  if (response.status !== 200) throw new Error(`the stream answered ${response.status}`);
  const text = await response.text();
  const blocks = text.split('\n\n').filter((block) => block.includes('data: '));
  return {
    events: blocks.map((block) => JSON.parse(block.match(/^data: (.*)$/m)?.[1] as string) as TeamEvent),
    ids: blocks.map((block) => block.match(/^id: (.*)$/m)?.[1] ?? ''),
    text,
  };
}

import http, { type IncomingHttpHeaders } from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** One request with exactly the headers given (a `host` of our choosing too), as any client can send it. */
export function request(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = http.request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      async (response) => {
        let text = '';
        for await (const chunk of response) text += chunk;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text });
      },
    );
    sent.on('error', reject);
    sent.end(options.body);
  });
}

/**
 * Writes `head` (the request line and headers, without the blank line) and then `parts` of a
 * body on a socket, and never finishes the body: answers the response once the server has
 * answered and closed the connection. It can only answer if the server answered without
 * waiting for the rest of the body.
 */
export function unfinishedRequest(port: number, head: string, parts: readonly Buffer[]): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk;
    });
    // The server may close while parts are still being written: what it answered is what counts.
    socket.on('error', () => {});
    socket.on('close', () => {
      const [top = '', text = ''] = received.split('\r\n\r\n');
      const status = Number(top.match(/^HTTP\/1\.1 (\d+)/)?.[1]);
      if (!status) reject(new Error(`no answer: ${JSON.stringify(received.slice(0, 200))}`));
      const headers: IncomingHttpHeaders = {};
      for (const line of top.split('\r\n').slice(1)) {
        const colon = line.indexOf(':');
        headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      resolve({ status, headers, text });
    });
    socket.write(`${head}\r\n\r\n`);
    for (const part of parts) socket.write(part);
  });
}

/** What a request asks for (see the requests of the run handle); also a message kind. */
export const REQUEST_KINDS = ['plan', 'permission', 'tool'] as const;

/**
 * What a message is. `text` is the default; the harness and the runtime send the others:
 * `task_notification` (a task was given to you or taken from you), `idle_notification` (a
 * member went idle, to the lead), `shutdown_request` / `shutdown_response`, and the request
 * kinds. A model may send `text`, `status_update`, `question` or `error_report` itself.
 */
export const MESSAGE_KINDS = [
  'text',
  'task_notification',
  'status_update',
  'question',
  'error_report',
  'idle_notification',
  'shutdown_request',
  'shutdown_response',
  ...REQUEST_KINDS,
] as const;
/** What a message is: one of {@link MESSAGE_KINDS}. */
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The kinds `send_message` lets a model choose. */
export const MODEL_MESSAGE_KINDS = ['text', 'status_update', 'question', 'error_report'] as const;

/** Why a member went idle, as its `idle_notification` says. */
export type IdleReason = 'available' | 'out_of_turns' | 'failed' | 'shutdown';

/**
 * A message in an agent's inbox. `from` is stamped by the mailbox from the sending agent
 * (the tool that sends is bound to that agent), so no agent can write as another; or it is
 * `user` (`USER`), the person running the team, a name no agent may take.
 */
export interface TeamMessage {
  /** The message's id, the same in every inbox it reached. */
  readonly id: string;
  /** Its sender: an agent's name, or `user`. */
  readonly from: string;
  /** The agent whose inbox holds this copy. */
  readonly to: string;
  /** Its text. */
  readonly content: string;
  /** ISO 8601. */
  readonly sentAt: string;
  /**
   * True when another agent of the team sent it; false when the person running the team did
   * (`from` is then `user`). Readers are told which, so a message from an agent can never pass
   * for the person's word.
   */
  readonly fromAgent: boolean;
  /** True when it was sent to `everyone`. */
  readonly broadcast: boolean;
  /**
   * True for replies the harness sent for an agent (its final reply, forwarded); such a
   * message never triggers another automatic reply, so two agents cannot ping-pong.
   */
  readonly automatic: boolean;
  /** When its reader took it; `null` while unread. */
  readonly readAt: string | null;
  /** What it is; a message stored before kinds existed reads as `text`. */
  readonly kind: MessageKind;
  /** Why the member went idle: on an `idle_notification` only. */
  readonly idleReason?: IdleReason;
  /** The turn's effect it is (see `SendOptions.effect`): a replay of the turn never sends it twice. */
  readonly effect?: string;
}

/** What `send` answers: the message once, with every mailbox it reached. */
export interface SentMessage {
  /** The message's id. */
  readonly id: string;
  /** Its sender: an agent's name, or `user`. */
  readonly from: string;
  /** Every mailbox it reached. */
  readonly to: readonly string[];
  /** Its text. */
  readonly content: string;
  /** When it was sent (ISO 8601). */
  readonly sentAt: string;
  /** True when it was sent to `everyone`. */
  readonly broadcast: boolean;
  /** True for a reply the harness sent for an agent. */
  readonly automatic: boolean;
  /** What it is. */
  readonly kind: MessageKind;
  /** Why the member went idle: on an `idle_notification` only. */
  readonly idleReason?: IdleReason;
}

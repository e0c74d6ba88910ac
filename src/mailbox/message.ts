/**
 * A message in an agent's inbox. `from` is stamped by the mailbox from the sending agent
 * (the tool that sends is bound to that agent), so no agent can write as another; or it is
 * `user` (`USER`), the person running the team, a name no agent may take.
 */
export interface TeamMessage {
  readonly id: string;
  readonly from: string;
  /** The agent whose inbox holds this copy. */
  readonly to: string;
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
}

/** What `send` answers: the message once, with every mailbox it reached. */
export interface SentMessage {
  readonly id: string;
  readonly from: string;
  readonly to: readonly string[];
  readonly content: string;
  readonly sentAt: string;
  readonly broadcast: boolean;
  readonly automatic: boolean;
}

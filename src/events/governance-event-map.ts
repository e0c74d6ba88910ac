/** What a request asks for (see `team:request-opened`). */
export type RequestKind = 'plan' | 'permission' | 'tool';
/** The file tools a grant covers: one that changes files, or both (`*`). */
export type GrantTool = 'write_file' | 'edit_file' | '*';

/** Requests and grants (src/governance), and the lifecycle: hooks, shutdown, roster. */
export interface GovernanceEventMap {
  /**
   * A member is to shut down (`run.shutdown`, `agent-teams shutdown`, the Studio): graceful, it
   * was sent the request `messageId` and answers in its next turn; `force`, its running turn
   * is cut and it departs; `removed` (`run.removeMember`), it also leaves the team.
   */
  'team:shutdown-requested': {
    readonly member: string;
    readonly force: boolean;
    readonly reason: string | null;
    readonly messageId: string | null;
    /** The member leaves the team (absent in logs written before removals were asked this way). */
    readonly removed?: boolean;
    /** Who asked: the lead (`retire_member`); absent when the person or a program did. */
    readonly by?: string;
  };
  /**
   * The person interrupts a member (`run.interrupt`, `agent-teams interrupt`, the Studio):
   * its running turn is cut (its task kept) and its next turn starts with the message
   * `messageId` first.
   */
  'team:interrupt-requested': {
    readonly member: string;
    readonly messageId: string;
    readonly by: string;
  };
  /** A member turned a graceful shutdown down, with its reason; it goes on working. */
  'team:shutdown-rejected': { readonly member: string; readonly reason: string };
  /** A member shut down (`removed`: it also left the team); `requeued` are the tasks it gave back. */
  'team:member-shutdown': {
    readonly member: string;
    readonly force: boolean;
    readonly reason: string | null;
    readonly removed: boolean;
    readonly requeued: readonly string[];
    /** Its unread messages, kept in its inbox (the archive), never delivered to anyone else. */
    readonly archived: readonly string[];
  };
  /**
   * A member joined the team during the run (`run.addMember`, the Studio, or the lead's
   * `spawn_member`). With its `instructions` (and `model` as `provider/model`, and the catalog
   * `definition` it was spawned from) any process that loads the team can run its turns.
   */
  'team:member-joined': {
    readonly member: string;
    readonly description: string;
    readonly model: string;
    readonly mode: string;
    /** Its instructions (absent in logs written before joins carried them). */
    readonly instructions?: string;
    /** The entry of the team's `catalog` it was spawned from, if it was. */
    readonly definition?: string;
    /** Who started it: the lead (`spawn_member`); absent when the person or a program added it. */
    readonly by?: string;
  };
  /**
   * A member's question (the message `messageId` of kind `question`, to `to`) got no answer
   * within `questionTimeoutMs`: it stops waiting and its next turn is told so.
   */
  'team:question-expired': {
    readonly member: string;
    readonly messageId: string;
    readonly to: readonly string[];
  };
  /** A lifecycle hook turned a change down; the feedback went to `agent`. */
  'team:hook-rejected': {
    readonly hook: 'onTaskCreated' | 'onTaskCompleted' | 'onTeammateIdle';
    readonly agent: string;
    readonly taskId: string | null;
    readonly feedback: string;
  };
  /**
   * Someone is asked to decide: a plan to approve, a permission, or a call of a tool marked
   * `needsApproval`. `from` waits (holding no slot) until it is answered or expires.
   */
  'team:request-opened': {
    readonly requestId: string;
    readonly kind: RequestKind;
    readonly from: string;
    readonly to: 'lead' | 'user';
    /** What is asked, as the one who answers reads it. */
    readonly subject: string;
    /** The task it is asked for, if any. */
    readonly taskId: string | null;
    /** For a permission or tool request: the tool, and the path a file tool acts on. */
    readonly tool: string | null;
    readonly path: string | null;
    /** Expires this long after it opened, into `defaultApprove`. */
    readonly timeoutMs: number;
    readonly defaultApprove: boolean;
    /** The turn of `from` it was opened in (absent in logs written before it was recorded). */
    readonly turn?: number | null;
    /**
     * For a permission or tool request: the asked call's input (JSON), which the harness runs
     * as asked, once, when it is approved (absent in logs written before calls were kept).
     */
    readonly input?: string | null;
  };
  /** A request was answered; the first answer (or expiry) of a request is the one that counts. */
  'team:request-answered': {
    readonly requestId: string;
    readonly approve: boolean;
    readonly feedback: string;
    /** The lead's name, or `user`. */
    readonly by: string;
    /** An approval that also stands for later calls: of that tool, or that tool on that path. */
    readonly always?: boolean;
  };
  /**
   * The harness ran an approved call as it was asked (the same tool, input and agent), once,
   * at the start of the asker's next turn; the agent reads `output` in that turn's briefing.
   */
  'team:approved-call-ran': {
    readonly requestId: string;
    readonly agent: string;
    /** The asker's turn that made the call (its start). */
    readonly turn: number;
    readonly tool: string;
    /** What the tool answered, as JSON (cut to the message limit). */
    readonly output: string;
  };
  /**
   * A request to the lead goes to the person instead: the lead is between turns and can take
   * no more (out of turns), so it would never be answered otherwise.
   */
  'team:request-forwarded': { readonly requestId: string; readonly to: 'user'; readonly reason: string };
  /** Nobody answered a request in time: it closes with its default answer (a plan goes ahead, a permission is denied). */
  'team:request-expired': {
    readonly requestId: string;
    readonly approve: boolean;
    readonly feedback: string;
  };
  /** The lead let a member use a file tool on paths (globs) without asking. */
  'team:paths-granted': {
    readonly member: string;
    readonly paths: readonly string[];
    readonly tool: GrantTool;
    readonly by: string;
  };
}

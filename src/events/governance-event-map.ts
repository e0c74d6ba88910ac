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
    /** The member to shut down. */
    readonly member: string;
    /** Whether its running turn is cut rather than asked to finish. */
    readonly force: boolean;
    /** Why, as the requester gave it; `null` when not given. */
    readonly reason: string | null;
    /** The shutdown request sent to it; `null` when forced. */
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
    /** The member interrupted. */
    readonly member: string;
    /** The message its next turn starts with. */
    readonly messageId: string;
    /** Who interrupted it. */
    readonly by: string;
  };
  /** A member turned a graceful shutdown down, with its reason; it goes on working. */
  'team:shutdown-rejected': {
    /** The member that declined. */
    readonly member: string;
    /** Why, in its words. */
    readonly reason: string;
  };
  /** A member shut down (`removed`: it also left the team); `requeued` are the tasks it gave back. */
  'team:member-shutdown': {
    /** The member that shut down. */
    readonly member: string;
    /** Whether its turn was cut. */
    readonly force: boolean;
    /** Why, as the requester gave it; `null` when not given. */
    readonly reason: string | null;
    /** Whether it also left the team. */
    readonly removed: boolean;
    /** The tasks it gave back to the list. */
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
    /** The new member's name. */
    readonly member: string;
    /** What it does, as the lead reads it. */
    readonly description: string;
    /** Its model, as `provider/model`. */
    readonly model: string;
    /** Its permission mode (a `PermissionMode`). */
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
    /** The member that asked. */
    readonly member: string;
    /** The question's message. */
    readonly messageId: string;
    /** Whom it asked. */
    readonly to: readonly string[];
  };
  /** A lifecycle hook turned a change down; the feedback went to `agent`. */
  'team:hook-rejected': {
    /** The hook that turned it down. */
    readonly hook: 'onTaskCreated' | 'onTaskCompleted' | 'onTeammateIdle';
    /** The agent the feedback went to. */
    readonly agent: string;
    /** The task concerned; `null` when none. */
    readonly taskId: string | null;
    /** What the hook said, as the agent reads it. */
    readonly feedback: string;
  };
  /**
   * Someone is asked to decide: a plan to approve, a permission, or a call of a tool marked
   * `needsApproval`. `from` waits (holding no slot) until it is answered or expires.
   */
  'team:request-opened': {
    /** The request's id, to answer it by. */
    readonly requestId: string;
    /** What it asks for. */
    readonly kind: RequestKind;
    /** The agent that asks. */
    readonly from: string;
    /** Who decides: the lead or the person. */
    readonly to: 'lead' | 'user';
    /** What is asked, as the one who answers reads it. */
    readonly subject: string;
    /** The task it is asked for, if any. */
    readonly taskId: string | null;
    /** For a permission or tool request: the tool, and the path a file tool acts on. */
    readonly tool: string | null;
    /** The path a file tool acts on; `null` when none. */
    readonly path: string | null;
    /** Expires this long after it opened, into `defaultApprove`. */
    readonly timeoutMs: number;
    /** The answer it gets if it expires. */
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
    /** The request answered. */
    readonly requestId: string;
    /** Whether it was approved. */
    readonly approve: boolean;
    /** The answer's reasons, as the asker reads them. */
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
    /** The request that approved the call. */
    readonly requestId: string;
    /** The agent that asked for the call. */
    readonly agent: string;
    /** The asker's turn that made the call (its start). */
    readonly turn: number;
    /** The tool that ran. */
    readonly tool: string;
    /** What the tool answered, as JSON (cut to the message limit). */
    readonly output: string;
  };
  /**
   * A request to the lead goes to the person instead: the lead is between turns and can take
   * no more (out of turns), so it would never be answered otherwise.
   */
  'team:request-forwarded': {
    /** The request forwarded. */
    readonly requestId: string;
    /** Who decides it now. */
    readonly to: 'user';
    /** Why it was forwarded. */
    readonly reason: string;
  };
  /** Nobody answered a request in time: it closes with its default answer (a plan goes ahead, a permission is denied). */
  'team:request-expired': {
    /** The request that expired. */
    readonly requestId: string;
    /** The default answer it closed with. */
    readonly approve: boolean;
    /** What the asker is told. */
    readonly feedback: string;
  };
  /** The lead let a member use a file tool on paths (globs) without asking. */
  'team:paths-granted': {
    /** The member granted. */
    readonly member: string;
    /** The globs it may use the tool on. */
    readonly paths: readonly string[];
    /** The file tool (or both) the grant covers. */
    readonly tool: GrantTool;
    /** Who granted it. */
    readonly by: string;
  };
}

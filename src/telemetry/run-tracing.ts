import { type Context, context, type Span, SpanStatusCode, type Tracer, trace } from '@opentelemetry/api';
import type { TelemetrySettings } from 'ai';
import { z } from 'zod';
import { satisfying } from '../errors/options-schema.js';
import type { TurnIdentity } from './turn-headers.js';

/**
 * The team's `telemetry` option: OpenTelemetry spans for its runs and turns, with the AI
 * SDK's own spans (`ai.streamText`, `ai.toolCall`, …) nested under each turn's.
 */
export interface TeamTelemetry {
  /** Where the spans go. Default: the `agent-teams` tracer of the global tracer provider. */
  tracer?: Tracer;
  /** Whether the AI SDK's spans record prompts and tool inputs. Default `true` (the AI SDK's). */
  recordInputs?: boolean;
  /** Whether the AI SDK's spans record replies and tool results. Default `true` (the AI SDK's). */
  recordOutputs?: boolean;
}

/** The schema of the `telemetry` option. */
export const TELEMETRY_SCHEMA = z.strictObject({
  tracer: satisfying<Tracer>(
    (tracer) => typeof (tracer as Partial<Tracer> | null)?.startSpan === 'function',
    'an OpenTelemetry Tracer',
  ).optional(),
  recordInputs: z.boolean().optional(),
  recordOutputs: z.boolean().optional(),
} satisfies Record<keyof TeamTelemetry, z.ZodType>);

/** The attributes the run's and turns' spans carry. */
export const SPAN_ATTRIBUTES = {
  team: 'agent_teams.team',
  runId: 'agent_teams.run_id',
  agent: 'agent_teams.agent',
  role: 'agent_teams.role',
  reason: 'agent_teams.reason',
  turn: 'agent_teams.turn',
  taskId: 'agent_teams.task_id',
  stopReason: 'agent_teams.stop_reason',
} as const;

/** One turn's span: the AI SDK's settings for the spans under it, and its end. */
export interface TurnSpan {
  readonly telemetry: TelemetrySettings;
  /** Runs `fn` with the turn's span active, so the AI SDK's spans are its children. */
  within<T>(fn: () => Promise<T>): Promise<T>;
  end(error?: string): void;
}

/** The spans of one run: the run's own, and one per turn under it. */
export class RunTracing {
  readonly #settings: TeamTelemetry;
  readonly #tracer: Tracer;
  readonly #span: Span;
  readonly #context: Context;
  readonly #team: string;
  readonly #runId: string;

  constructor(settings: TeamTelemetry, team: string, runId: string) {
    this.#settings = settings;
    this.#tracer = settings.tracer ?? trace.getTracer('agent-teams');
    this.#team = team;
    this.#runId = runId;
    this.#span = this.#tracer.startSpan('agent-teams.run', {
      attributes: { [SPAN_ATTRIBUTES.team]: team, [SPAN_ATTRIBUTES.runId]: runId },
    });
    this.#context = trace.setSpan(context.active(), this.#span);
  }

  turn(identity: TurnIdentity): TurnSpan {
    const attributes = {
      [SPAN_ATTRIBUTES.team]: this.#team,
      [SPAN_ATTRIBUTES.runId]: this.#runId,
      [SPAN_ATTRIBUTES.agent]: identity.agent,
      [SPAN_ATTRIBUTES.role]: identity.role,
      [SPAN_ATTRIBUTES.reason]: identity.reason,
      [SPAN_ATTRIBUTES.turn]: identity.turn,
      ...(identity.taskId ? { [SPAN_ATTRIBUTES.taskId]: identity.taskId } : {}),
    };
    const span = this.#tracer.startSpan('agent-teams.turn', { attributes }, this.#context);
    const active = trace.setSpan(this.#context, span);
    const { recordInputs, recordOutputs } = this.#settings;
    return {
      telemetry: {
        isEnabled: true,
        tracer: this.#tracer,
        functionId: `agent-teams.${identity.role}`,
        metadata: attributes,
        ...(recordInputs !== undefined ? { recordInputs } : {}),
        ...(recordOutputs !== undefined ? { recordOutputs } : {}),
      },
      within: (fn) => context.with(active, fn),
      end: (error) => finish(span, error),
    };
  }

  /** Ends the run's span with how the run ended. */
  end(outcome: { readonly stopReason: string } | { readonly error: string }): void {
    if ('stopReason' in outcome) this.#span.setAttribute(SPAN_ATTRIBUTES.stopReason, outcome.stopReason);
    finish(this.#span, 'error' in outcome ? outcome.error : undefined);
  }
}

function finish(span: Span, error: string | undefined): void {
  if (error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: error });
  span.end();
}

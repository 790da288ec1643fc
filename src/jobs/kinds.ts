import type { z } from "zod";
import type { AppDeps } from "../deps.ts";
import type { EnqueueOptions, JobQueue } from "./queue.ts";

/**
 * Job kinds with the zod schema of their payload (docs/decisions/0003-job-queue.md, "Payloads"). A kind is declared
 * once, next to its handler: the producer enqueues with `enqueueJob(queue, KIND, payload)`, typed from the schema's
 * input, and the handler made with `handleJob(KIND, run)` gets the schema's output. The worker checks the stored
 * payload against the schema when it reads the job: a malformed one fails that job at once (no retry can mend it),
 * with the schema's complaint as the job's last_error, and the worker goes on with the next job.
 *
 * The handlers' types (Job, JobContext, JobHandler…) live here too, beside the kinds they run: the domains declaring
 * handlers need not import the worker, and the worker, which runs them, imports this file, not the reverse.
 */

/** The schema of a payload: a JSON object once parsed. */
export type PayloadSchema = z.ZodType<Record<string, unknown>>;

/** One kind of job: its name in `jobs.kind` and the schema of its payload. */
export interface JobKind<S extends PayloadSchema = PayloadSchema> {
  readonly name: string;
  readonly payload: S;
}

/** Declares a job kind (`name` as stored in `jobs.kind`, e.g. "review.run"). */
export function jobKind<S extends PayloadSchema>(name: string, payload: S): JobKind<S> {
  return { name, payload };
}

/** What a handler of `K` receives. */
export type JobPayload<K extends JobKind> = z.output<K["payload"]>;

/** A claimed job as a handler sees it. */
export interface Job {
  id: string;
  kind: string;
  payload: Record<string, unknown>;
  /** Attempts so far, this one included (1 on the first run). */
  attempts: number;
  maxAttempts: number;
}

/** What a handler gets besides its payload. */
export interface JobContext {
  deps: AppDeps;
  job: Job;
}

/** Runs one job. Throwing makes the job retry later (with backoff) until its attempts are used up. */
export type JobRunner = (payload: Record<string, unknown>, ctx: JobContext) => Promise<void>;

/**
 * A handler: a runner, or a runner with `onGiveUp`, called once when the job is finally marked failed
 * (its last attempt threw, or its worker died during the last attempt), so the domain can record the failure
 * instead of leaving its own state in progress forever. With `payload` (a schema, see handleJob) the worker
 * parses the stored payload before calling either, and fails a job whose payload the schema refuses at once.
 */
export type JobHandler =
  | JobRunner
  | {
      run: JobRunner;
      onGiveUp?: (payload: Record<string, unknown>, reason: string, ctx: JobContext) => Promise<void>;
      payload?: PayloadSchema;
    };

/** Handlers by job kind, e.g. `{"review.run": …}`. A worker claims only the kinds it has a handler for. */
export type JobHandlers = Record<string, JobHandler>;

/** A payload refused by its kind's schema: when enqueued (a producer's bug) or when read by the worker. */
export class InvalidJobPayloadError extends Error {
  constructor(kind: string, error: z.ZodError) {
    const issues = error.issues.map((i) => `${i.path.length > 0 ? i.path.join(".") : "payload"}: ${i.message}`);
    super(`invalid payload of job kind "${kind}": ${issues.join("; ")}`);
    this.name = "InvalidJobPayloadError";
  }
}

/**
 * `payload` checked against `schema` (the handler's, see handleJob); unchanged when the handler declares none.
 * @throws InvalidJobPayloadError naming each field the schema refuses.
 */
export function readPayload(
  kind: string,
  schema: PayloadSchema | undefined,
  payload: unknown,
): Record<string, unknown> {
  if (!schema) return payload as Record<string, unknown>;
  const parsed = schema.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(kind, parsed.error);
  return parsed.data;
}

/**
 * Enqueues a job of `kind` with `payload`, checked against the kind's schema first, so a producer's mistake fails where
 * it is made instead of in a worker later.
 * @returns the job id. @throws InvalidJobPayloadError.
 */
export async function enqueueJob<S extends PayloadSchema>(
  jobs: Pick<JobQueue, "enqueue">,
  kind: JobKind<S>,
  payload: z.input<S>,
  opts?: EnqueueOptions,
): Promise<string> {
  return jobs.enqueue(kind.name, readPayload(kind.name, kind.payload, payload), opts);
}

/**
 * The handler of `kind`: `run` (and `onGiveUp`, called when the job is finally failed) get the payload as the schema
 * parsed it. The worker parses before calling either.
 */
export function handleJob<S extends PayloadSchema>(
  kind: JobKind<S>,
  run: (payload: z.output<S>, ctx: JobContext) => Promise<void>,
  onGiveUp?: (payload: z.output<S>, reason: string, ctx: JobContext) => Promise<void>,
): JobHandler {
  return {
    payload: kind.payload,
    run: run as JobRunner,
    onGiveUp: onGiveUp as
      | ((payload: Record<string, unknown>, reason: string, ctx: JobContext) => Promise<void>)
      | undefined,
  };
}

/** The schema a handler declares, if any (a bare function declares none). */
export function payloadSchemaOf(handler: JobHandler): PayloadSchema | undefined {
  return typeof handler === "function" ? undefined : handler.payload;
}

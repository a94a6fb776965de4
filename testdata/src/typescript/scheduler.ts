/*
 * symedit test fixture: hand-written for symedit.
 * A small in-process job scheduler used to exercise symbol lookup in TypeScript.
 */
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";

/** Build-time version string, injected by the bundler. */
declare const VERSION: string;

/** Host-provided logging hook. */
declare function log(msg: string): void;

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

/** Lifecycle states of a job. */
export type JobState = "pending" | "running" | "done" | "failed" | "cancelled";

/** Either a value or an error, never both. */
export type Result<T, E = Error> =
  | { ok: true; value: T }
  | { ok: false; error: E };

/** Makes every property of T, recursively, read-only. */
export type DeepReadonly<T> = {
  readonly [K in keyof T]: T[K] extends object ? DeepReadonly<T[K]> : T[K];
};

/** Optional listeners, one per state. */
type StateHandlers = {
  [S in JobState]?: (job: Job<unknown>) => void;
};

/** How urgent a job is; larger runs first. */
export enum Priority {
  Low = 0,
  Normal = 5,
  High = 10,
}

/** Kinds of job, inlined at compile time. */
const enum JobKind {
  OneShot = "oneshot",
  Recurring = "recurring",
}

/** Passed to a job while it runs. */
export interface JobContext {
  readonly attempt: number;
  readonly signal: AbortSignal;
  /** Report progress between 0 and 100. */
  progress(percent: number): void;
  log(message: string): void;
}

/** Minimal clock abstraction so tests can control time. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** Options accepted by {@link Scheduler.schedule}. */
export interface ScheduleOptions extends Partial<Pick<JobContext, "attempt">> {
  priority?: Priority;
  retries?: number;
  handlers?: StateHandlers;
}

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

/** Clamps n into [lo, hi]. */
const clamp = (n: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, n));

/** Exponential backoff with an upper bound, in milliseconds. */
export const backoff = (attempt: number, baseMs = 100): number => {
  const raw = baseMs * 2 ** attempt;
  return clamp(raw, baseMs, 30_000);
};

/** True for errors worth retrying. */
const isRetryable = function (err: unknown): boolean {
  if (err instanceof Error && err.name === "AbortError") {
    return false;
  }
  return true;
};

/** Formats a duration for humans. */
export const formatDuration = function (ms: number): string {
  if (ms < 1000) {
    return `${ms}ms`;
  }
  return `${(ms / 1000).toFixed(1)}s`;
};

/** Yields unique job ids with a common prefix. */
export function* idGenerator(prefix: string): Generator<string, never, void> {
  let n = 0;
  while (true) {
    n += 1;
    yield `${prefix}-${n}-${randomUUID().slice(0, 8)}`;
  }
}

/** Parses a priority from a name or a number. */
export function parsePriority(value: string): Priority;
export function parsePriority(value: number): Priority;
export function parsePriority(value: string | number): Priority {
  if (typeof value === "number") {
    return clamp(value, Priority.Low, Priority.High) as Priority;
  }
  const key = value.charAt(0).toUpperCase() + value.slice(1).toLowerCase();
  return Priority[key as keyof typeof Priority] ?? Priority.Normal;
}

/** Builds a retry policy function for the given number of attempts. */
export function createRetryPolicy(maxAttempts: number): (attempt: number, err: unknown) => number | null {
  function delayFor(attempt: number): number {
    return backoff(attempt) + Math.floor(Math.random() * 50);
  }
  return (attempt, err) => {
    if (attempt >= maxAttempts || !isRetryable(err)) {
      return null;
    }
    return delayFor(attempt);
  };
}

// ---------------------------------------------------------------------------
// Decorators (legacy experimentalDecorators style)
// ---------------------------------------------------------------------------

/** Class decorator: freezes the constructor and its prototype. */
function sealed(constructor: Function): void {
  Object.seal(constructor);
  Object.seal(constructor.prototype);
}

/** Method decorator: logs every call. */
function logged(target: object, key: string, descriptor: PropertyDescriptor): PropertyDescriptor {
  const original = descriptor.value as (...args: unknown[]) => unknown;
  descriptor.value = function (this: unknown, ...args: unknown[]) {
    log(`call ${key}`);
    return original.apply(this, args);
  };
  return descriptor;
}

/** Method decorator factory: marks a method with a soft time budget. */
function budget(ms: number) {
  return function (target: object, key: string, descriptor: PropertyDescriptor): void {
    log(`${key} has a budget of ${formatDuration(ms)}`);
    void target;
    void descriptor;
  };
}

// ---------------------------------------------------------------------------
// Cron expressions
// ---------------------------------------------------------------------------

export namespace Cron {
  /** A parsed "every N seconds" expression. */
  export interface Spec {
    everyMs: number;
  }

  /** Parses expressions such as "every 5s" or "every 2m". */
  export function parse(expr: string): Spec {
    const match = /^every (\d+)([sm])$/.exec(expr.trim());
    if (match === null) {
      throw new Error(`bad cron expression: ${expr}`);
    }
    const n = Number(match[1]);
    return { everyMs: match[2] === "s" ? n * 1000 : n * 60_000 };
  }

  function pad(n: number): string {
    return n < 10 ? `0${n}` : String(n);
  }

  /** A schedule that knows its next firing time. */
  export class Expression {
    constructor(readonly spec: Spec, private last = 0) {}

    next(now: number): number {
      if (this.last === 0) {
        this.last = now;
      }
      this.last += this.spec.everyMs;
      return this.last;
    }

    toString(): string {
      const d = new Date(this.last);
      return `${pad(d.getHours())}:${pad(d.getMinutes())}`;
    }
  }
}

// ---------------------------------------------------------------------------
// Jobs
// ---------------------------------------------------------------------------

/** Base class of all jobs. */
export abstract class Job<TResult> {
  /** Distinguishes one-shot from recurring jobs. */
  abstract readonly kind: JobKind;

  private _state: JobState = "pending";
  protected attempts = 0;

  constructor(public readonly id: string, protected priorityValue: Priority = Priority.Normal) {}

  /** Does the actual work. */
  protected abstract execute(ctx: JobContext): Promise<TResult>;

  /** Short human description. */
  abstract describe(): string;

  /** The job's current lifecycle state. */
  get state(): JobState {
    return this._state;
  }

  set state(next: JobState) {
    if (this._state === "done" || this._state === "cancelled") {
      throw new Error(`job ${this.id} is already ${this._state}`);
    }
    this._state = next;
  }

  get priority(): Priority {
    return this.priorityValue;
  }

  set priority(value: Priority) {
    this.priorityValue = clamp(value, Priority.Low, Priority.High);
  }

  /** Runs the job once, tracking its state. */
  async run(ctx: JobContext): Promise<Result<TResult>> {
    this.attempts += 1;
    this.state = "running";
    try {
      const value = await this.execute(ctx);
      this.state = "done";
      return { ok: true, value };
    } catch (error) {
      this.state = "failed";
      return { ok: false, error: error as Error };
    }
  }
}

/** A job wrapping a plain async function. */
export class FunctionJob<T> extends Job<T> {
  readonly kind = JobKind.OneShot;

  constructor(id: string, private readonly fn: (ctx: JobContext) => Promise<T>, priority?: Priority) {
    super(id, priority);
  }

  protected execute(ctx: JobContext): Promise<T> {
    return this.fn(ctx);
  }

  describe(): string {
    return `function job ${this.id}`;
  }
}

/** A job that re-arms itself according to a cron expression. */
export class RecurringJob extends Job<void> {
  readonly kind = JobKind.Recurring;
  private readonly expression: Cron.Expression;

  constructor(id: string, expr: string, private readonly body: () => void) {
    super(id, Priority.Low);
    this.expression = new Cron.Expression(Cron.parse(expr));
  }

  protected async execute(ctx: JobContext): Promise<void> {
    ctx.log(`tick ${this.expression.toString()}`);
    this.body();
  }

  describe(): string {
    return `recurring job ${this.id}`;
  }

  nextRun(now: number): number {
    return this.expression.next(now);
  }
}

// ---------------------------------------------------------------------------
// Scheduler
// ---------------------------------------------------------------------------

/** Runs jobs with bounded concurrency, highest priority first. */
@sealed
export default class Scheduler extends EventEmitter {
  static readonly DEFAULT_CONCURRENCY = 4;
  private static instances = 0;

  private readonly queue: Job<unknown>[] = [];
  private running = 0;
  readonly #ids = idGenerator("job");

  /** Called by the timer; a property, not a method. */
  private readonly onTick = (): void => {
    void this.drain();
  };

  constructor(
    private readonly clock: Clock,
    public readonly concurrency: number = Scheduler.DEFAULT_CONCURRENCY,
  ) {
    super();
    Scheduler.instances += 1;
  }

  /** Number of schedulers created in this process. */
  static count(): number {
    return Scheduler.instances;
  }

  /** Creates a scheduler on the real clock. */
  static create(concurrency?: number): Scheduler {
    const clock: Clock = {
      now: () => Date.now(),
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    };
    return new Scheduler(clock, concurrency);
  }

  /** Schedules a job object or a bare function. */
  schedule<T>(job: Job<T>): Job<T>;
  schedule<T>(fn: (ctx: JobContext) => Promise<T>, options?: ScheduleOptions): Job<T>;
  @logged
  schedule<T>(jobOrFn: Job<T> | ((ctx: JobContext) => Promise<T>), options: ScheduleOptions = {}): Job<T> {
    const job =
      jobOrFn instanceof Job ? jobOrFn : new FunctionJob(this.nextId(), jobOrFn, options.priority);
    this.queue.push(job as Job<unknown>);
    this.queue.sort((a, b) => b.priority - a.priority);
    this.emit("scheduled", job.id);
    return job;
  }

  /** Cancels a pending job. Returns false if it was not queued. */
  cancel(id: string): boolean {
    const index = this.queue.findIndex((job) => job.id === id);
    if (index < 0) {
      return false;
    }
    const [job] = this.queue.splice(index, 1);
    job.state = "cancelled";
    return true;
  }

  /** Iterates over the jobs still waiting to run. */
  *pending(): IterableIterator<Job<unknown>> {
    for (const job of this.queue) {
      if (job.state === "pending") {
        yield job;
      }
    }
  }

  /** Runs queued jobs until the queue is empty. */
  @logged
  @budget(5_000)
  async drain(): Promise<number> {
    let completed = 0;
    while (this.queue.length > 0 && this.running < this.concurrency) {
      const job = this.queue.shift()!;
      this.running += 1;
      try {
        const result = await job.run(this.contextFor(job));
        if (result.ok) {
          completed += 1;
        }
      } finally {
        this.running -= 1;
      }
    }
    return completed;
  }

  protected contextFor(job: Job<unknown>): JobContext {
    const controller = new AbortController();
    return {
      attempt: 1,
      signal: controller.signal,
      progress: (percent) => this.emit("progress", job.id, percent),
      log: (message) => log(`[${job.id}] ${message}`),
    };
  }

  private nextId(): string {
    return this.#ids.next().value;
  }

  get size(): number {
    return this.queue.length;
  }
}

/** Runs all jobs sequentially and collects their results. */
export async function runAll<T>(jobs: ReadonlyArray<Job<T>>, clock: Clock): Promise<Result<T>[]> {
  const results: Result<T>[] = [];
  for (const job of jobs) {
    const started = clock.now();
    const controller = new AbortController();
    results.push(
      await job.run({
        attempt: 1,
        signal: controller.signal,
        progress: () => undefined,
        log: (message) => log(`${job.id} (${formatDuration(clock.now() - started)}): ${message}`),
      }),
    );
  }
  return results;
}

/** Prints the build version; kept for the CLI banner. */
export function banner(): string {
  return `scheduler ${VERSION}`;
}

export { Scheduler, JobKind as Kind };

// Hand-written for symedit's tests (issue 16): overload signatures of
// functions, methods and constructors, as rxjs and the DOM typings write
// them. Checked against the TypeScript compiler by make test-typescript.

/** Parses a duration given as milliseconds or as "1.5s" / "200ms". */
export function duration(ms: number): number;
export function duration(text: string): number;
export function duration(value: number | string): number {
  if (typeof value === "number") {
    return value;
  }
  const m = /^(\d+(?:\.\d+)?)(ms|s)$/.exec(value);
  if (!m) {
    throw new Error(`bad duration: ${value}`);
  }
  return m[2] === "s" ? Number(m[1]) * 1000 : Number(m[1]);
}

// Ambient signatures without an implementation are one symbol each.
declare function describe(name: string): void;
declare function describe(name: string, fn: () => void): void;

export type Kind = "N" | "E" | "C";

/** A notification, as rxjs models one. */
export class Notification<T> {
  readonly hasValue: boolean;

  constructor(kind: "N", value?: T);
  constructor(kind: "E", value: undefined, error: unknown);
  constructor(kind: "C");
  constructor(
    public readonly kind: Kind,
    public readonly value?: T,
    public readonly error?: unknown,
  ) {
    this.hasValue = kind === "N";
  }

  /** Calls the handler that matches the kind. */
  observe(next: (value: T) => void): void;
  // An overload with all three handlers.
  observe(next: (value: T) => void, error: (err: unknown) => void, complete: () => void): void;
  observe(next: (value: T) => void, error?: (err: unknown) => void, complete?: () => void): void {
    switch (this.kind) {
      case "N":
        next(this.value as T);
        break;
      case "E":
        error?.(this.error);
        break;
      case "C":
        complete?.();
        break;
    }
  }

  static createNext<T>(value: T): Notification<T> & { kind: "N" } {
    return new Notification("N", value) as Notification<T> & { kind: "N" };
  }
}

export abstract class Source<T> {
  abstract read(): T;
  abstract read(n: number): T[];

  toArray(): T[];
  toArray(limit: number): T[];
  toArray(limit?: number): T[] {
    const out: T[] = [];
    for (let i = 0; i < (limit ?? 1); i++) {
      out.push(this.read());
    }
    return out;
  }
}

export namespace Timers {
  export function after(ms: number): Promise<void>;
  export function after(ms: number, value: string): Promise<string>;
  export function after(ms: number, value?: string): Promise<void | string> {
    return new Promise((resolve) => setTimeout(() => resolve(value), ms));
  }
}

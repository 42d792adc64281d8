/** The typed arrays a parser may allocate its buffers as. */
const TYPED_ARRAYS = [
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
] as const;

/** Thrown by an allocation past the budget; the parse process reports the bound, whatever the parser made of it. */
export class AllocationBudgetExceeded extends RangeError {}

export interface AllocationBudget {
  /** True once an allocation passed the budget since the last reset (a parser may have caught the error and gone on). */
  readonly exceeded: boolean;
  /** Starts a new count, for the next parse. */
  reset(): void;
}

/** Bytes a `new X(arg)` allocates: a length, or a copy of an array-like; a view over a buffer allocates none. */
function bytesOf(arg: unknown, bytesPerElement: number): number {
  if (typeof arg === 'number') return arg * bytesPerElement;
  if (arg instanceof ArrayBuffer || arg instanceof SharedArrayBuffer) return 0;
  const length = arg !== null && typeof arg === 'object' ? (arg as { length?: unknown }).length : undefined;
  return typeof length === 'number' ? length * bytesPerElement : 0;
}

/**
 * Charges every typed array and ArrayBuffer allocated through the globals of this realm to one budget,
 * and refuses the allocation that passes it. Byte buffers live outside the JS heap, so the heap limit
 * (`--max-old-space-size`) does not bound them: a PDF whose 1 MiB stream inflates to 1 GiB would be held
 * whole by PDF.js. For a parse process only (it replaces this realm's globals), installed before any parser loads.
 * Counted are the bytes allocated in all, not those alive, so a parser that keeps doubling a buffer pays
 * for every copy: a deterministic bound, the same on every run. `reset()` starts the count of the next parse.
 */
export function installAllocationBudget(maxBytes: number): AllocationBudget {
  let used = 0;
  const state = {
    exceeded: false,
    reset() {
      used = 0;
      state.exceeded = false;
    },
  };
  const charge = (bytes: number) => {
    used += bytes;
    if (used <= maxBytes) return;
    state.exceeded = true;
    throw new AllocationBudgetExceeded(`the parse allocated more than ${maxBytes} bytes of buffers`);
  };
  const globals = globalThis as unknown as Record<string, unknown>;
  for (const name of TYPED_ARRAYS) {
    const target = globals[name] as { new (...args: unknown[]): object; BYTES_PER_ELEMENT: number };
    // A Proxy, not a subclass: `x instanceof Uint8Array` keeps holding for arrays made before or elsewhere.
    globals[name] = new Proxy(target, {
      construct(ctor, args: unknown[], newTarget: (...a: unknown[]) => object) {
        charge(bytesOf(args[0], ctor.BYTES_PER_ELEMENT));
        return Reflect.construct(ctor, args, newTarget) as object;
      },
    });
  }
  globals.ArrayBuffer = new Proxy(ArrayBuffer, {
    construct(ctor, args: unknown[], newTarget: (...a: unknown[]) => object) {
      charge(typeof args[0] === 'number' ? args[0] : 0);
      return Reflect.construct(ctor, args, newTarget) as object;
    },
  });
  return state;
}

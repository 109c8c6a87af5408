/** One call waiting on a deadline: linked into its {@link DeadlineList} until it settles or expires. */
export interface Deadline {
  /** `performance.now()` at which the call expires. */
  readonly expiresAt: number;
  /** Runs once, when the deadline passes before the call was removed. */
  expire(): void;
  // The list's links, kept on the call itself so that listing it allocates nothing.
  previous: Deadline | undefined;
  next: Deadline | undefined;
  listed: boolean;
}

/** Calls that each end at a deadline, kept in deadline order and served by one timer. */
export interface DeadlineList {
  /** Links a call in; its `expire` runs when its deadline passes, unless it is removed first. */
  add(call: Deadline): void;
  /** Unlinks a call that settled; removing one twice, or one that expired, does nothing. */
  remove(call: Deadline): void;
  /** Stops the timer (the service closed); calls still listed never expire. */
  stop(): void;
}

/**
 * The time-outs of every request in flight on one timer, instead of a timer (and, for the store, an
 * `AbortController` and a `Promise.race`) per request: the profile of the node entry put those at a
 * fifth of the route's CPU (Node 20 builds an `AbortSignal` in microseconds). A service keeps one
 * list per time-out (store, body), whose calls all wait the same time, so a new call almost always belongs at the tail, and a settled one is unlinked in O(1). The
 * timer is set for the head and is not cleared when the list empties: it fires once, finds nothing
 * and stops, so a steady load costs one timer per time-out period, not one per request. It does not
 * hold the process open (`unref`); a request in flight is held open by its own I/O and the server's
 * socket.
 *
 * @returns an empty list
 */
export function deadlineList(): DeadlineList {
  let head: Deadline | undefined;
  let tail: Deadline | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Infinity;

  const unlink = (call: Deadline): void => {
    if (call.previous === undefined) head = call.next;
    else call.previous.next = call.next;
    if (call.next === undefined) tail = call.previous;
    else call.next.previous = call.previous;
    call.previous = undefined;
    call.next = undefined;
    call.listed = false;
  };

  const arm = (at: number): void => {
    timerAt = at;
    // At least 1 ms: a deadline met by `performance.now()` rounding must not spin the timer.
    timer = setTimeout(fire, Math.max(1, Math.ceil(at - performance.now())));
    if (typeof timer === 'object' && typeof timer.unref === 'function') timer.unref();
  };

  const fire = (): void => {
    timer = undefined;
    timerAt = Infinity;
    const now = performance.now();
    while (head !== undefined && head.expiresAt <= now) {
      const expired = head;
      unlink(expired);
      expired.expire();
    }
    if (head !== undefined && timer === undefined) arm(head.expiresAt);
  };

  return {
    add(call) {
      // Walk back from the tail to the last call that expires no later than this one.
      let after = tail;
      while (after !== undefined && after.expiresAt > call.expiresAt) after = after.previous;
      call.previous = after;
      call.next = after === undefined ? head : after.next;
      if (after === undefined) head = call;
      else after.next = call;
      if (call.next === undefined) tail = call;
      else call.next.previous = call;
      call.listed = true;
      if (call.expiresAt < timerAt) {
        if (timer !== undefined) clearTimeout(timer);
        arm(call.expiresAt);
      }
    },
    remove(call) {
      if (call.listed) unlink(call);
    },
    stop() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
    },
  };
}

/** One answered (or unanswered: status 0) request of the load. */
export interface Answer {
  route: string;
  status: number;
  /** The JSON `error` of an error answer; for no answer, why (a time-out, a closed connection). */
  error?: string;
  retryAfter: string | null;
  at: number;
  /** What the test said was going on (e.g. "bus down"). */
  phase: string;
}

export interface LoadRoute {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: () => unknown;
  token?: () => string;
  /** Told about every answer with the body that was sent (e.g. to remember committed sign-ups). */
  answered?: (status: number, body: unknown) => void;
}

/**
 * Steady traffic against a running Hearth: each worker calls the routes in turn, as fast as they
 * answer (each with a 15 s time-out: a CI machine running other suites beside this one can be slow
 * to answer without anything being wrong), and every answer is recorded with the phase it fell in.
 */
export function startLoad(base: string, routes: LoadRoute[], workers = 4) {
  const answers: Answer[] = [];
  let phase = 'steady';
  let stopped = false;
  const worker = async (offset: number) => {
    for (let i = offset; !stopped; i++) {
      const route = routes[i % routes.length] as LoadRoute;
      const body = route.body?.();
      const token = route.token?.();
      const started = phase;
      try {
        const response = await fetch(`${base}${route.path}`, {
          method: route.method,
          headers: {
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(15_000),
        });
        const json = (await response.json().catch(() => ({}))) as { error?: unknown };
        route.answered?.(response.status, body);
        answers.push({
          route: route.name,
          status: response.status,
          ...(typeof json.error === 'string' ? { error: json.error } : {}),
          retryAfter: response.headers.get('retry-after'),
          at: Date.now(),
          phase: started,
        });
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        answers.push({
          route: route.name,
          status: 0,
          error: String(cause ?? error),
          retryAfter: null,
          at: Date.now(),
          phase: started,
        });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };
  const running = Array.from({ length: workers }, (_, i) => worker(i));
  return {
    answers,
    setPhase(next: string) {
      phase = next;
    },
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

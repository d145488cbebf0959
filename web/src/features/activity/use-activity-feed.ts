import type { ActivityEntry } from '@hearth/contracts';
import { useCallback, useEffect, useRef, useState } from 'react';
import { activityApi } from './activity.api.js';
import type { ActivityFilters } from './activity.filters.js';
import { ACTIVITY_MESSAGES } from './activity.messages.js';

interface Feed {
  entries: ActivityEntry[];
  next: string | null;
  loading: boolean;
  error: string | null;
  /** The first page has arrived (or failed). */
  loaded: boolean;
}

const START: Feed = { entries: [], next: null, loading: true, error: null, loaded: false };

/**
 * The Activity page's entries: the first page for the filters, then the next one each time
 * `more()` is called (the page calls it as the list's end scrolls into view). A change of filters
 * starts over; answers to an older query are ignored.
 */
export function useActivityFeed(filters: ActivityFilters, enabled: boolean) {
  const [feed, setFeed] = useState<Feed>(START);
  const [retries, setRetries] = useState(0);
  const query = useRef(0);
  // One "now" per query: a time range means the same window on every page.
  const now = useRef(Date.now());

  const load = useCallback(
    (cursor: string | null, id: number) => {
      setFeed((f) => ({ ...f, loading: true, error: null }));
      activityApi.page(filters, cursor, now.current).then((result) => {
        if (query.current !== id) return;
        if (result.success && Array.isArray(result.data?.entries)) {
          const page = result.data;
          setFeed((f) => ({
            entries: cursor ? [...f.entries, ...page.entries] : page.entries,
            next: page.next_cursor,
            loading: false,
            error: null,
            loaded: true,
          }));
        } else {
          setFeed((f) => ({
            ...f,
            loading: false,
            loaded: true,
            error: result.error ?? ACTIVITY_MESSAGES.fetchFailed,
          }));
        }
      });
    },
    [filters],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: retries is the explicit "fetch again" trigger.
  useEffect(() => {
    if (!enabled) return;
    const id = ++query.current;
    now.current = Date.now();
    setFeed(START);
    load(null, id);
  }, [enabled, load, retries]);

  const more = useCallback(() => {
    if (feed.loading || !feed.next || feed.error) return;
    load(feed.next, query.current);
  }, [feed.loading, feed.next, feed.error, load]);

  const retry = useCallback(() => {
    if (feed.entries.length > 0 && feed.next) load(feed.next, query.current);
    else setRetries((n) => n + 1);
  }, [feed.entries.length, feed.next, load]);

  return { ...feed, more, retry, now: now.current };
}

import type { Room, RoomsResponse } from '@hearth/contracts';
import { describe, expect, it } from 'vitest';
import type { ApiResult } from '../../shared/api/client.js';
import { FavouritesStore, movedBy } from './favourites-store.js';
import { RoomFeed } from './room-events.js';
import { RoomsStore } from './rooms-store.js';

const room = (id: string, order: number): Room => ({ id, name: id, icon: 'house', order, floor_id: null });
const ok = <T>(data: T): ApiResult<T> => ({ success: true, status: 200, data });
const failed = <T>(error: string): ApiResult<T> => ({ success: false, status: 500, data: {} as T, error });

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

describe('RoomsStore', () => {
  it('reads once, then follows the feed', async () => {
    let reads = 0;
    const store = new RoomsStore(async () => {
      reads++;
      return ok<RoomsResponse>({ rooms: [room('b', 1), room('a', 0)], floors: [] });
    });
    const feed = new RoomFeed();
    store.follow(feed);
    await Promise.all([store.load(), store.load()]);
    expect(reads).toBe(1);
    expect(store.getSnapshot().rooms.map((item) => item.id)).toEqual(['a', 'b']);
    feed.emit({ type: 'room.removed', id: 'a' });
    expect(store.getSnapshot().rooms.map((item) => item.id)).toEqual(['b']);
    feed.emit({ type: 'resync' });
    await store.load();
    expect(reads).toBe(2);
    expect(store.getSnapshot().rooms.map((item) => item.id)).toEqual(['a', 'b']);
  });

  it('applies events that arrive during the read on top of its answer', async () => {
    const answer = deferred<ApiResult<RoomsResponse>>();
    const store = new RoomsStore(() => answer.promise);
    const loading = store.load();
    store.apply({ type: 'room.upsert', room: room('new', 1) });
    answer.resolve(ok({ rooms: [room('a', 0)], floors: [] }));
    await loading;
    expect(store.getSnapshot().rooms.map((item) => item.id)).toEqual(['a', 'new']);
  });

  it('keeps the error of a failed read and is not loaded', async () => {
    const store = new RoomsStore(async () => failed('Forbidden'));
    await store.load();
    expect(store.getSnapshot()).toMatchObject({ loaded: false, error: 'Forbidden' });
  });

  it('forgets everything on clear, even an answer still on the wire', async () => {
    const answer = deferred<ApiResult<RoomsResponse>>();
    const store = new RoomsStore(() => answer.promise);
    const loading = store.load();
    store.clear();
    answer.resolve(ok({ rooms: [room('a', 0)], floors: [] }));
    await loading;
    expect(store.getSnapshot()).toMatchObject({ loaded: false, rooms: [] });
  });
});

describe('FavouritesStore', () => {
  function setup(saveResult?: (ids: string[]) => ApiResult<{ device_ids: string[] }>) {
    let stored = ['lamp'];
    const saves: string[][] = [];
    let reads = 0;
    const store = new FavouritesStore(
      {
        fetch: async () => {
          reads++;
          return ok({ device_ids: stored });
        },
        save: async (ids) => {
          saves.push(ids);
          const result = saveResult?.(ids) ?? ok({ device_ids: ids });
          if (result.success) stored = ids;
          return result;
        },
      },
      () => 'me',
    );
    const feed = new RoomFeed();
    store.follow(feed);
    return {
      store,
      feed,
      saves,
      reads: () => reads,
      setStored: (ids: string[]) => {
        stored = ids;
      },
    };
  }

  it.each([
    ['stars a device at the end', 'plug', ['lamp', 'plug']],
    ['un-stars a starred one', 'lamp', []],
  ])('%s', async (_name, id, expected) => {
    const { store, saves } = setup();
    await store.load();
    const saving = store.toggle(id);
    expect(store.getSnapshot().ids).toEqual(expected);
    expect(await saving).toBeNull();
    expect(saves).toEqual([expected]);
    expect(store.getSnapshot().ids).toEqual(expected);
  });

  it('puts the list back and says why when the save fails', async () => {
    const { store } = setup(() => failed('Unknown device: plug'));
    await store.load();
    expect(await store.toggle('plug')).toBe('Unknown device: plug');
    expect(store.getSnapshot()).toMatchObject({ ids: ['lamp'], error: 'Unknown device: plug' });
  });

  it("reads again when this user's list changed elsewhere, not another user's", async () => {
    const { store, feed, reads, setStored } = setup();
    await store.load();
    setStored(['lamp', 'fan']);
    feed.emit({ type: 'favourites.changed', userId: 'someone-else' });
    expect(reads()).toBe(1);
    feed.emit({ type: 'favourites.changed', userId: 'me' });
    await store.load();
    expect(reads()).toBe(2);
    expect(store.getSnapshot().ids).toEqual(['lamp', 'fan']);
  });

  it('keeps a move made while the previous save is on the wire, and saves it next', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const saves: string[][] = [];
    const store = new FavouritesStore(
      {
        fetch: async () => ok({ device_ids: ['a', 'b', 'c'] }),
        save: async (ids) => {
          saves.push(ids);
          if (saves.length === 1) await held;
          return ok({ device_ids: ids });
        },
      },
      () => 'me',
    );
    await store.load();
    const first = store.move('b', -1);
    while (saves.length === 0) await Promise.resolve();
    const second = store.move('c', -1);
    release();
    expect(await Promise.all([first, second])).toEqual([null, null]);
    expect(saves).toEqual([
      ['b', 'a', 'c'],
      ['b', 'c', 'a'],
    ]);
    expect(store.getSnapshot().ids).toEqual(['b', 'c', 'a']);
  });

  it('saves toggles one after the other so the last one wins', async () => {
    const { store, saves } = setup();
    await store.load();
    await Promise.all([store.toggle('a'), store.toggle('b')]);
    expect(saves.at(-1)).toEqual(['lamp', 'a', 'b']);
    expect(store.getSnapshot().ids).toEqual(['lamp', 'a', 'b']);
  });

  it.each([
    ['moves one down', 'lamp', 1, ['fan', 'lamp', 'plug']],
    ['moves one up', 'plug', -1, ['lamp', 'plug', 'fan']],
  ])('%s and saves the order', async (_name, id, delta, expected) => {
    const { store, saves, setStored } = setup();
    setStored(['lamp', 'fan', 'plug']);
    await store.load();
    const saving = store.move(id, delta);
    expect(store.getSnapshot().ids).toEqual(expected);
    expect(await saving).toBeNull();
    expect(saves).toEqual([expected]);
  });

  it('moves it back and says why when saving the order fails', async () => {
    const { store, setStored } = setup(() => failed('Unknown device: fan'));
    setStored(['lamp', 'fan']);
    await store.load();
    expect(await store.move('fan', -1)).toBe('Unknown device: fan');
    expect(store.getSnapshot()).toMatchObject({ ids: ['lamp', 'fan'], error: 'Unknown device: fan' });
  });
});

describe('movedBy', () => {
  it.each<[string[], string, number, string[]]>([
    [['a', 'b', 'c'], 'a', 1, ['b', 'a', 'c']],
    [['a', 'b', 'c'], 'c', -1, ['a', 'c', 'b']],
    [['a', 'b', 'c'], 'a', -1, ['a', 'b', 'c']],
    [['a', 'b', 'c'], 'c', 1, ['a', 'b', 'c']],
    [['a', 'b', 'c'], 'x', 1, ['a', 'b', 'c']],
  ])('%j moving %s by %d → %j', (ids, id, delta, expected) => {
    expect(movedBy(ids, id, delta)).toEqual(expected);
  });
});

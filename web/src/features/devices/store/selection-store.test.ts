import { describe, expect, it } from 'vitest';
import { SelectionStore } from './selection-store.js';

describe('SelectionStore', () => {
  it('picks and un-picks in order, tells listeners, and forgets everything when stopped', () => {
    const selection = new SelectionStore();
    let told = 0;
    selection.subscribe(() => told++);
    selection.start();
    expect(selection.getSnapshot()).toEqual({ active: true, ids: [] });
    selection.toggle('b');
    selection.toggle('a');
    selection.toggle('c');
    selection.toggle('a');
    expect(selection.getSnapshot().ids).toEqual(['b', 'c']);
    expect(selection.isSelected('b')).toBe(true);
    expect(selection.isSelected('a')).toBe(false);
    selection.stop();
    expect(selection.getSnapshot()).toEqual({ active: false, ids: [] });
    expect(told).toBe(6);
  });

  it('starts the mode when a tile is picked without it, and stopping twice tells once', () => {
    const selection = new SelectionStore();
    let told = 0;
    selection.subscribe(() => told++);
    selection.toggle('a');
    expect(selection.getSnapshot()).toEqual({ active: true, ids: ['a'] });
    selection.stop();
    selection.stop();
    expect(told).toBe(2);
  });

  it('drops devices the page no longer lists', () => {
    const selection = new SelectionStore();
    selection.toggle('a');
    selection.toggle('b');
    const before = selection.getSnapshot();
    selection.keepOnly(new Set(['a', 'b', 'c']));
    expect(selection.getSnapshot()).toBe(before);
    selection.keepOnly(new Set(['b']));
    expect(selection.getSnapshot().ids).toEqual(['b']);
  });

  it('adds every shown device for "Select all shown", keeping what was picked and its order', () => {
    const selection = new SelectionStore();
    selection.start();
    selection.toggle('c');
    let told = 0;
    selection.subscribe(() => told++);
    selection.add(['a', 'b', 'c']);
    expect(selection.getSnapshot()).toEqual({ active: true, ids: ['c', 'a', 'b'] });
    // Nothing new: nobody is told.
    selection.add(['b', 'a']);
    expect(told).toBe(1);
  });
});

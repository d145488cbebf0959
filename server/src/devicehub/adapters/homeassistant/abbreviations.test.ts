import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ABBREVIATIONS, DEVICE_ABBREVIATIONS, expandKeys, ORIGIN_ABBREVIATIONS } from './abbreviations.js';
import { corpusFile } from './corpus.js';

describe('Home Assistant discovery abbreviations', () => {
  it.each([
    // [abbreviated, expanded]
    [
      { stat_t: 'a/state', cmd_t: 'a/set', uniq_id: 'x' },
      { state_topic: 'a/state', command_topic: 'a/set', unique_id: 'x' },
    ],
    // A full key given beside its abbreviation wins (real payloads mix both).
    [{ stat_t: 'short', state_topic: 'full' }, { state_topic: 'full' }],
    [{ unknown_key: 1 }, { unknown_key: 1 }],
  ])('%j → %j', (abbreviated, expanded) => {
    expect(expandKeys(abbreviated, ABBREVIATIONS)).toEqual(expanded);
  });

  const file = corpusFile('ha-discovery/_abbreviations.json');
  it.skipIf(!file)(
    "covers every abbreviation Home Assistant documents (the corpus's table, when present)",
    () => {
      const documented = JSON.parse(fs.readFileSync(file as string, 'utf8')) as Record<string, unknown>;
      const missing = (ours: Readonly<Record<string, string>>, theirs: unknown) =>
        Object.entries((theirs ?? {}) as Record<string, string>)
          .filter(([short, full]) => ours[short] !== full)
          .map(([short, full]) => `${short}→${full} (ours: ${ours[short]})`);
      expect(missing(ABBREVIATIONS, documented.abbreviations)).toEqual([]);
      expect(missing(ABBREVIATIONS, documented.legacy_abbreviations)).toEqual([]);
      expect(missing(DEVICE_ABBREVIATIONS, documented.device_abbreviations)).toEqual([]);
      expect(missing(ORIGIN_ABBREVIATIONS, documented.origin_abbreviations)).toEqual([]);
    },
  );
});

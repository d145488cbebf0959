/** docs/screens.md#routes: the music streaming provider, its route and its name (route, sidebar, tile, placeholder). */
export const MUSIC_PROVIDER = { name: 'Spotify', path: '/spotify' } as const;

// Scenes as automations and app.ts see them (docs/automations.md#scenes).
export { type Sight, seesScene } from './scene-sight.js';
export { captureState, readableKeys, refusedKey, writableKeys } from './scene-targets.js';
export { type ScenesModule, type ScenesModuleDeps, scenesModule } from './scenes.module.js';
export { type SceneCaller, type ScenesService, withTimeout } from './scenes.service.js';

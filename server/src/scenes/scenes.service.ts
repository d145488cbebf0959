import {
  type ActivityActor,
  isRoomIcon,
  SCENE_COMMANDS_PER_SECOND,
  type Scene,
  type SceneApplied,
  type SceneList,
  type SceneResult,
  type SceneTarget,
  sceneTopics,
} from '@hearth/contracts';
import type { DeviceDirectory, DeviceFeed, DeviceGate, Reach } from '../devicehub/index.js';
import { HttpError } from '../http/errors.js';
import { nowIso } from '../storage/columns.js';
import { type Sight, seesScene, sightOf } from './scene-sight.js';
import { captureState, refusedKey } from './scene-targets.js';
import { SCENES_ERRORS as E } from './scenes.errors.js';
import type { ScenesRepository } from './scenes.repository.js';
import type { CaptureScene, CreateScene, UpdateScene } from './scenes.schemas.js';

/** Who applies a scene: the actor the activity log names, and the reach commands are checked against. */
export interface SceneCaller {
  actor: ActivityActor;
  reach: Reach;
}

/** Who edits scenes: their id (stored as the creator) and their reach (devices they may view). */
export interface SceneEditor {
  id: string;
  reach: Reach;
}

export interface ScenesServiceDeps {
  repository: ScenesRepository;
  devices: Pick<DeviceDirectory, 'has' | 'publishEvent'>;
  feed: Pick<DeviceFeed, 'find'>;
  gate: Pick<DeviceGate, 'commandAs' | 'visible'>;
  /** Commands per second when a scene is applied (default SCENE_COMMANDS_PER_SECOND). */
  commandsPerSecond?: number;
  /** Longest wait for one command (default 10 s). */
  commandTimeoutMs?: number;
  /** Another instance's pages hear of a change. */
  shared?: (id: string, removed: boolean) => void;
}

const COMMAND_TIMEOUT_MS = 10_000;

/** `promise`, or a rejection with `message` after `ms` (a step never waits forever). */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(message)), ms);
      timer.unref();
    }),
  ]).finally(() => clearTimeout(timer));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** docs/automations.md#scenes: scenes kept, captured and applied through the device hub. */
export class ScenesService {
  constructor(private readonly deps: ScenesServiceDeps) {}

  /** GET /api/scenes: the scenes naming nothing hidden from the caller (docs/automations.md#who). */
  async list(viewer: Pick<SceneEditor, 'reach'>): Promise<SceneList> {
    const sees = this.sightOf(viewer.reach);
    return { scenes: (await this.deps.repository.list()).filter((scene) => seesScene(scene, sees)) };
  }

  /** What a reach sees of the household (rooms and devices). */
  sightOf(reach: Reach): Sight {
    return sightOf(reach, (of) => this.deps.gate.visible(of));
  }

  /** Any scene, as automations apply it. */
  async get(id: string): Promise<Scene> {
    const scene = await this.deps.repository.find(id);
    if (!scene) throw new HttpError(404, E.notFound);
    return scene;
  }

  /** A scene the caller sees; one naming a room or device hidden from them is not found. */
  async seen(reach: Reach, id: string): Promise<Scene> {
    const scene = await this.get(id);
    if (!seesScene(scene, this.sightOf(reach))) throw new HttpError(404, E.notFound);
    return scene;
  }

  /**
   * The targets as given, each device listed and controlled by the editor (a scene's targets are
   * commands: nobody saves one they could not send, docs/access.md#granting), each key one it takes.
   */
  private checkTargets(editor: SceneEditor, targets: readonly SceneTarget[]) {
    for (const target of targets) {
      const device = this.deps.feed.find(target.device_id);
      const level = !device ? 'none' : editor.reach.everything ? 'control' : editor.reach.levelOf(device.id);
      if (!device || level === 'none') throw new HttpError(400, E.unknownDevice(target.device_id));
      if (level !== 'control') throw new HttpError(403, E.viewOnly(device.name));
      const refused = refusedKey(device, target.state);
      if (refused)
        throw new HttpError(
          400,
          refused.known
            ? E.notWritable(device.name, refused.key)
            : E.unknownProperty(device.name, refused.key),
        );
    }
  }

  /** A room that exists and the editor sees (a hidden one is as unknown). */
  private async checkRoom(editor: SceneEditor, roomId: string | null | undefined) {
    if (
      roomId &&
      (!(await this.deps.repository.roomExists(roomId)) || !this.sightOf(editor.reach).room(roomId))
    )
      throw new HttpError(400, E.unknownRoom(roomId));
  }

  private changed(id: string, removed: boolean) {
    this.deps.devices.publishEvent(sceneTopics.changed, { id, removed }, 'managers');
    this.deps.shared?.(id, removed);
  }

  async create(editor: SceneEditor, input: CreateScene): Promise<Scene> {
    this.checkTargets(editor, input.targets);
    await this.checkRoom(editor, input.room_id);
    const scene: Scene = {
      id: crypto.randomUUID(),
      name: input.name,
      icon: input.icon ?? null,
      room_id: input.room_id ?? null,
      targets: input.targets,
    };
    await this.deps.repository.insert(scene, editor.id, nowIso());
    this.changed(scene.id, false);
    return scene;
  }

  /** POST /api/scenes/capture: the devices' writable values now. */
  async capture(editor: SceneEditor, input: CaptureScene): Promise<Scene> {
    const targets: SceneTarget[] = [];
    for (const id of new Set(input.device_ids)) {
      const device = this.deps.feed.find(id);
      const level = !device ? 'none' : editor.reach.everything ? 'control' : editor.reach.levelOf(id);
      if (!device || level === 'none') throw new HttpError(400, E.unknownDevice(id));
      if (level !== 'control') throw new HttpError(403, E.viewOnly(device.name));
      const state = captureState(device);
      if (Object.keys(state).length > 0) targets.push({ device_id: id, state });
    }
    if (targets.length === 0) throw new HttpError(400, E.nothingToCapture);
    return this.create(editor, {
      name: input.name,
      icon: input.icon ?? null,
      room_id: input.room_id ?? null,
      targets,
    });
  }

  async update(editor: SceneEditor, id: string, input: UpdateScene): Promise<Scene> {
    const scene = await this.seen(editor.reach, id);
    if (input.targets) this.checkTargets(editor, input.targets);
    if (input.room_id !== undefined) await this.checkRoom(editor, input.room_id);
    const next: Scene = {
      ...scene,
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.icon !== undefined ? { icon: input.icon } : {}),
      ...(input.room_id !== undefined ? { room_id: input.room_id } : {}),
      ...(input.targets !== undefined ? { targets: input.targets } : {}),
    };
    if (!(await this.deps.repository.update(next, nowIso()))) throw new HttpError(404, E.notFound);
    this.changed(id, false);
    return next;
  }

  /** Answers the scene as it was (the activity log names it). */
  async delete(editor: Pick<SceneEditor, 'reach'>, id: string): Promise<Scene> {
    const scene = await this.seen(editor.reach, id);
    if (!(await this.deps.repository.delete(id))) throw new HttpError(404, E.notFound);
    this.changed(id, true);
    return scene;
  }

  /**
   * POST /api/scenes/{id}/apply: one command per device through the hub, checked against the
   * caller's reach and recorded as theirs, at most `commandsPerSecond` a second; what failed is
   * said per device (a removed device as "Device removed").
   */
  async apply(caller: SceneCaller, id: string): Promise<SceneApplied> {
    return { results: await this.send(caller, (await this.seen(caller.reach, id)).targets) };
  }

  async send(caller: SceneCaller, targets: readonly SceneTarget[]): Promise<SceneResult[]> {
    const perSecond = this.deps.commandsPerSecond ?? SCENE_COMMANDS_PER_SECOND;
    const timeout = this.deps.commandTimeoutMs ?? COMMAND_TIMEOUT_MS;
    const results: SceneResult[] = [];
    const started = Date.now();
    for (let first = 0; first < targets.length; first += perSecond) {
      // Slice n starts no earlier than n seconds after the first.
      const due = started + (first / perSecond) * 1000;
      if (Date.now() < due) await new Promise((resolve) => setTimeout(resolve, due - Date.now()));
      const slice = targets.slice(first, first + perSecond);
      results.push(
        ...(await Promise.all(
          slice.map(async (target): Promise<SceneResult> => {
            if (!this.deps.feed.find(target.device_id))
              return { device_id: target.device_id, status: 'failed', error: E.deviceRemoved };
            try {
              await withTimeout(
                this.deps.gate.commandAs(caller.reach, caller.actor, target.device_id, {
                  state: target.state,
                }),
                timeout,
                E.timeout,
              );
              return { device_id: target.device_id, status: 'sent' };
            } catch (error) {
              return { device_id: target.device_id, status: 'failed', error: messageOf(error) };
            }
          }),
        )),
      );
    }
    return results;
  }
}

export const isSceneIcon = isRoomIcon;

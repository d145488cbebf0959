import type { Scene, SceneTarget } from '@hearth/contracts';
import type { Kysely, Selectable } from 'kysely';
import { isObject } from '../shared/json.js';
import type { Database } from '../storage/schema.js';
import type { ScenesTable } from './scenes.tables.js';

function targetsOf(text: string): SceneTarget[] {
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) return [];
    return parsed.filter(
      (each): each is SceneTarget =>
        isObject(each) && typeof each.device_id === 'string' && isObject(each.state),
    );
  } catch {
    return [];
  }
}

export const toScene = (row: Selectable<ScenesTable>): Scene => ({
  id: row.id,
  name: row.name,
  icon: row.icon,
  room_id: row.room_id,
  targets: targetsOf(row.targets),
});

/** Scenes in the database (docs/automations.md#storage), on SQLite and PostgreSQL alike. */
export class ScenesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async list(): Promise<Scene[]> {
    const rows = await this.db.selectFrom('scenes').selectAll().orderBy('name').orderBy('id').execute();
    return rows.map(toScene);
  }

  async find(id: string): Promise<Scene | undefined> {
    const row = await this.db.selectFrom('scenes').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toScene(row);
  }

  async roomExists(id: string): Promise<boolean> {
    return (
      (await this.db.selectFrom('rooms').select('id').where('id', '=', id).executeTakeFirst()) !== undefined
    );
  }

  async insert(scene: Scene, by: string, at: string): Promise<void> {
    await this.db
      .insertInto('scenes')
      .values({
        id: scene.id,
        name: scene.name,
        icon: scene.icon,
        room_id: scene.room_id,
        targets: JSON.stringify(scene.targets),
        created_by: by,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }

  async update(scene: Scene, at: string): Promise<boolean> {
    const result = await this.db
      .updateTable('scenes')
      .set({
        name: scene.name,
        icon: scene.icon,
        room_id: scene.room_id,
        targets: JSON.stringify(scene.targets),
        updated_at: at,
      })
      .where('id', '=', scene.id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('scenes').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

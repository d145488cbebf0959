import type { Kysely, Migration } from 'kysely';

/**
 * Notifications (docs/alerts.md#storage): one notice per incident (what it says), one notification
 * per person told of it (read, and its delivery: the version last sent, when the next send is due
 * and which instance holds it), and each person's channels and quiet hours.
 */
export const migration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('notices')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('severity', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('body', 'text', (col) => col.notNull())
      .addColumn('device_id', 'text', (col) => col.references('devicehub_devices.id').onDelete('cascade'))
      .addColumn('room_id', 'text')
      .addColumn('audience', 'text', (col) => col.notNull())
      .addColumn('window_minutes', 'integer', (col) => col.notNull())
      .addColumn('version', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .addColumn('resolved_at', 'text')
      .addColumn('acknowledged_at', 'text')
      .addColumn('acknowledged_by', 'text')
      .addColumn('acknowledged_name', 'text')
      .execute();
    await db.schema
      .createTable('notifications')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('notice_id', 'text', (col) => col.notNull().references('notices.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
      .addColumn('read', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('sent_version', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('sent_at', 'text')
      .addColumn('due_at', 'text')
      .addColumn('claimed_until', 'text')
      .addColumn('digest_pending', 'integer', (col) => col.notNull().defaultTo(0))
      .addUniqueConstraint('notifications_notice_user', ['notice_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('notifications_user')
      .on('notifications')
      .columns(['user_id', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('notifications_due').on('notifications').column('due_at').execute();
    await db.schema
      .createTable('notification_preferences')
      .addColumn('user_id', 'text', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('push', 'integer', (col) => col.notNull())
      .addColumn('email', 'integer', (col) => col.notNull())
      .addColumn('email_digest', 'integer', (col) => col.notNull())
      .addColumn('webhook_url', 'text')
      .addColumn('quiet_start', 'text')
      .addColumn('quiet_end', 'text')
      .addColumn('digest_sent_at', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('notification_preferences').execute();
    await db.schema.dropTable('notifications').execute();
    await db.schema.dropTable('notices').execute();
  },
};

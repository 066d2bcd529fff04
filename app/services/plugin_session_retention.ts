import { DateTime } from 'luxon'
import db from '@adonisjs/lucid/services/db'
import PluginSession from '#models/plugin_session'

/**
 * Deletes plugin sessions a day past their expiry (docs/plugins.md, "Sessions called back
 * by a service"): no call is answered for them any more, and what they produced reached the
 * workflow run that waited for them. Kept apart from plugin_sessions.ts, which needs the
 * workflow jobs that run this.
 */
export async function prunePluginSessions(now = DateTime.now()): Promise<number> {
  const deleted = await PluginSession.query()
    .where(
      'expiresAt',
      '<',
      now.minus({ days: 1 }).toFormat(db.connection().dialect.dateTimeFormat)
    )
    .delete()
  return Array.isArray(deleted) ? Number(deleted[0] ?? 0) : Number(deleted)
}

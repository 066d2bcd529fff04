import { DateTime } from 'luxon'
import FindOrCreateUser from '#actions/users/find_or_create_user'
import DevMail from '#models/dev_mail'
import Workspace from '#models/workspace'
import type User from '#models/user'
import { newId } from '#services/ids'
import { workspacesOf } from '#services/workspace_access'

export function uniqueEmail(prefix = 'user') {
  return `${prefix}-${newId()}@example.com`
}

/** A fresh user (with their first workspace) for one test. */
export async function createUser(overrides: { email?: string; name?: string | null } = {}) {
  const email = overrides.email ?? uniqueEmail()
  const { user } = await new FindOrCreateUser().handle(email, {
    name: overrides.name === undefined ? 'Test User' : overrides.name,
  })
  return user
}

export async function firstWorkspaceOf(user: User): Promise<Workspace> {
  const [first] = await workspacesOf(user)
  return (await Workspace.find(first.id))!
}

export async function setUserPlan(user: User, plan: User['plan'], endsInDays = 30) {
  user.plan = plan
  user.planEndsAt = DateTime.now().plus({ days: endsInDays })
  await user.save()
}

/** The newest sign-in link mailed to this address (dev mailbox). */
export async function lastMagicLink(email: string) {
  const mail = await DevMail.query()
    .where('to', email.toLowerCase())
    .orderBy('id', 'desc')
    .firstOrFail()
  const match = /https?:\/\/\S+\/auth\/magic\/([a-f0-9]+)/.exec(mail.text)
  if (!match) throw new Error(`no sign-in link in the last mail to ${email}`)
  return { url: match[0], path: new URL(match[0]).pathname, token: match[1], mail }
}

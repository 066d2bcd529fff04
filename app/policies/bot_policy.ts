import type Bot from '#models/bot'
import BotInvitation, { userModeForInvitation } from '#models/bot_invitation'
import type User from '#models/user'
import { AuthorizationResponse, BasePolicy } from '@adonisjs/bouncer'
import type { AuthorizerResponse } from '@adonisjs/bouncer/types'
import { roleIn } from '#services/workspace_access'
import { userModeForRole, type UserMode, type WorkspaceRole } from '#shared/workspace_roles'
import { folderAccessOnBot, modeInFolder } from '#services/folder_access'

/** The invitation to this bot for the user's e-mail, if any (bot-level collaborators). */
export async function invitationFor(user: User, botId: string) {
  return BotInvitation.query().where('bot_id', botId).where('email', user.email).first()
}

/**
 * A member's mode on a bot from their workspace role, narrowed by the folder the bot sits in
 * (docs/folder_sharing.md): null when that folder is not shared with them.
 */
export async function memberModeOnBot(
  user: User,
  bot: Bot,
  role: WorkspaceRole
): Promise<UserMode | null> {
  const access = await folderAccessOnBot(user.id, bot, role)
  return access ? modeInFolder(userModeForRole(role), access) : null
}

/**
 * The user's mode on a bot: from their workspace role (and the bot's folder), else from an
 * invitation to that bot (Full access and Can edit write, Can view reads); null when they
 * have neither.
 */
export async function botModeFor(user: User, bot: Bot): Promise<UserMode | null> {
  const role = await roleIn(user, bot.workspaceId)
  const memberMode = role !== null ? await memberModeOnBot(user, bot, role) : null
  if (memberMode !== null) return memberMode
  const invitation = await invitationFor(user, bot.id)
  return invitation ? userModeForInvitation(invitation.type) : null
}

/**
 * Whether the user may delete or duplicate the bot: members who edit the workspace's bots,
 * and people invited with Full access. "Can edit" invitees change the flow, nothing more.
 */
export async function canManageBot(user: User, bot: Bot): Promise<boolean> {
  const role = await roleIn(user, bot.workspaceId)
  const memberMode = role !== null ? await memberModeOnBot(user, bot, role) : null
  if (memberMode !== null) return memberMode === 'write'
  const invitation = await invitationFor(user, bot.id)
  return invitation?.type === 'FULL_ACCESS'
}

/**
 * Modes already worked out, per loaded bot and user: Bouncer makes a policy per check, and
 * one request checks a bot more than once (can they see it, then can they change it). Keyed
 * by the model instance, so the memory goes with the request that loaded it.
 */
const modes = new WeakMap<Bot, Map<string, Promise<UserMode | null>>>()

export function modeOn(user: User, bot: Bot): Promise<UserMode | null> {
  let byUser = modes.get(bot)
  if (!byUser) modes.set(bot, (byUser = new Map()))
  let mode = byUser.get(user.id)
  if (!mode) byUser.set(user.id, (mode = botModeFor(user, bot)))
  return mode
}

const NOT_FOUND = () => AuthorizationResponse.deny('Bot not found', 404)

/**
 * Bots: whoever has a mode on a bot sees it (a bot they cannot see is "not found", so ids do
 * not leak); the write mode changes it; deleting and duplicating also need canManageBot.
 */
export default class BotPolicy extends BasePolicy {
  async view(user: User, bot: Bot): Promise<AuthorizerResponse> {
    return (await modeOn(user, bot)) === null ? NOT_FOUND() : true
  }

  async edit(user: User, bot: Bot): Promise<AuthorizerResponse> {
    const mode = await modeOn(user, bot)
    if (mode === null) return NOT_FOUND()
    return mode === 'write' || AuthorizationResponse.deny('You can only view this bot.', 403)
  }

  async manage(user: User, bot: Bot): Promise<AuthorizerResponse> {
    const editing = await this.edit(user, bot)
    if (editing !== true) return editing
    return (
      (await canManageBot(user, bot)) ||
      AuthorizationResponse.deny(
        'Only people with full access can delete or duplicate this bot.',
        403
      )
    )
  }
}

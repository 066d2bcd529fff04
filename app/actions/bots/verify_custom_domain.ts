import { DateTime } from 'luxon'
import Bot from '#models/bot'
import AppError from '#exceptions/app_error'
import { domainHost, hostProvesControl, verificationRecord } from '#services/custom_domains'
import { assertDomainClaimable } from './bots.js'

/**
 * Checks the TXT record of a bot's pending custom domain (docs/custom_domains.md) and, when
 * it holds the workspace's value, serves the bot there from now on.
 */
export class VerifyCustomDomain {
  async handle(bot: Bot) {
    if (!bot.customDomain) {
      throw new AppError('No custom domain', { status: 422, field: 'customDomain' })
    }
    // The rules may have changed since it was saved (a new VIEWER_URL, a host proven by another).
    await assertDomainClaimable(bot, bot.customDomain)
    if (bot.customDomainVerifiedAt) return bot
    const host = domainHost(bot.customDomain)
    if (!(await hostProvesControl(bot.workspaceId, host))) {
      // The record to add is in customDomainStatusOf (the Share panel, the API).
      throw new AppError('Domain not verified yet', {
        status: 422,
        description: 'The TXT record was not found yet. DNS changes can take a while to be seen.',
        field: 'customDomain',
      })
    }
    bot.customDomainVerifiedAt = DateTime.now()
    await bot.save()
    return bot
  }
}

/** What the Share panel and the API show about a bot's custom domain. */
export function customDomainStatusOf(bot: Bot) {
  if (!bot.customDomain) return { domain: null, status: null, record: null }
  return {
    domain: bot.customDomain,
    status: bot.customDomainVerifiedAt ? ('verified' as const) : ('pending' as const),
    verifiedAt: bot.customDomainVerifiedAt?.toISO() ?? null,
    record: verificationRecord(bot.workspaceId, domainHost(bot.customDomain)),
  }
}

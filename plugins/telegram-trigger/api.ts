import { TELEGRAM_UPDATE_OPTIONS } from './index.js'

export { callTelegram } from '#sdk/telegram'

/** The Telegram update types the options ask for (message when none is chosen). */
export function updateTypesOf(options: Record<string, unknown>): string[] {
  const chosen = Object.entries(TELEGRAM_UPDATE_OPTIONS)
    .filter(([option]) => options[option] === true || options[option] === 'true')
    .map(([, type]) => type)
  return chosen.length > 0 ? chosen : ['message']
}

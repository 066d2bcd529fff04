import { type GoogleStandIn } from '#tests/stand_ins/google'

/** A log entry as the assertions name it. */
export const brief = (log: { status: string; description: string }) => ({
  status: log.status,
  description: log.description,
})

export const SHEETS = new URL('../../plugins/google-sheets/', import.meta.url)
export const CALENDAR = new URL('../../plugins/google-calendar/', import.meta.url)
export const FIREBASE = new URL('../../plugins/firebase/', import.meta.url)

export function oauthCredentials(google: GoogleStandIn) {
  return {
    clientId: google.clientId,
    clientSecret: google.clientSecret,
    baseUrl: google.baseUrl,
    tokenUrl: google.tokenUrl,
    oauth: { ...google.connect(), expiresAt: Date.now() + 3600_000, connectedAt: 'now' },
  }
}

export const ORDERS = () => [
  ['Order', 'Name', 'Status', 'Total'],
  ['7', 'Ada', 'shipped', '120'],
  ['8', 'Linus', 'packing', '35'],
  ['9', 'Grace', 'shipped', '80'],
  ['10', 'Alan', 'cancelled', '15'],
]

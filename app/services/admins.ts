import env from '#start/env'

/** Admins are configured by e-mail (ADMIN_EMAILS, comma-separated). */
export function adminEmails(): string[] {
  return (env.get('ADMIN_EMAILS') ?? '')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean)
}

export function isAdminEmail(email: string | null | undefined) {
  return !!email && adminEmails().includes(email.trim().toLowerCase())
}

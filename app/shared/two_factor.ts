/** What account settings show of the person's two-factor sign-in (docs/security.md). */

export interface TwoFactorSetupDto {
  secret: string
  uri: string
  /** data: URL of the QR code of `uri` */
  qr: string
}

export interface TwoFactorStatusDto {
  enabled: boolean
  enabledAt: string | null
  recoveryCodesLeft: number
  /** While a setup waits for its confirming code: what to scan or type into the app. */
  setup: TwoFactorSetupDto | null
}

import { useTranslation, Trans } from 'react-i18next'
import { InboxIcon } from 'lucide-react'
import { usePageProps } from '~/hooks/use_shared_props'

/** Shown when the server has no mail server: the sign-in links land in /dev/mailbox. */
export function DevMailboxNote({ email }: { email?: string | null }) {
  const { devMailbox } = usePageProps()
  useTranslation()
  if (!devMailbox) return null
  const href = email ? `/dev/mailbox?to=${encodeURIComponent(email)}` : '/dev/mailbox'
  return (
    <p
      data-testid="dev-mailbox-note"
      className="flex items-start gap-2 rounded-md border border-dashed bg-muted/50 px-3 py-2 text-xs text-muted-foreground"
    >
      <InboxIcon aria-hidden className="mt-0.5 size-3.5 shrink-0" />
      <span>
        <Trans
          i18nKey="auth.devMailbox"
          components={{
            mlink: (
              <a
                href={href}
                className="font-medium text-primary underline underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 rounded-sm"
              />
            ),
          }}
        />
      </span>
    </p>
  )
}

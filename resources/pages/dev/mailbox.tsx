import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { InboxIcon, Trash2Icon } from 'lucide-react'
import { BareLayout } from '~/components/bare_layout'
import { Button } from '~/components/ui/button'
import { Badge } from '~/components/ui/badge'
import { Card, CardContent, CardHeader, CardTitle, CardDescription } from '~/components/ui/card'
import { EmptyState } from '~/components/empty_state'
import { formatDateTime } from '~/lib/format'

interface Mail {
  id: number | string
  to: string
  subject: string
  text: string
  links: string[]
  createdAt: string | null
}

/** Development only: the mails the app would have sent, newest first. */
export default function Mailbox({ filter, mails }: { filter: string | null; mails: Mail[] }) {
  const { t } = useTranslation()
  const sorted = [...mails].sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''))

  return (
    <BareLayout center={false} className="mx-auto w-full max-w-3xl">
      <Head title={t('mailbox.title')} />
      <div className="flex flex-wrap items-center justify-between gap-3 py-4">
        <div>
          <h1 className="text-xl font-semibold">{t('mailbox.title')}</h1>
          <p className="text-sm text-muted-foreground">{t('mailbox.description')}</p>
        </div>
        <div className="flex items-center gap-2">
          <Button
            variant="outline"
            size="sm"
            onClick={() => router.reload()}
            data-testid="mailbox-refresh"
          >
            {t('mailbox.refresh')}
          </Button>
          <Button
            variant="outline"
            size="sm"
            onClick={() => router.post('/dev/mailbox/clear')}
            disabled={mails.length === 0}
            data-testid="mailbox-clear"
          >
            <Trash2Icon aria-hidden />
            {t('mailbox.clear')}
          </Button>
        </div>
      </div>
      {filter && (
        <p className="mb-4 flex flex-wrap items-center gap-2 text-sm">
          {t('mailbox.filteredBy')} <Badge variant="secondary">{filter}</Badge>
          <Link
            href="/dev/mailbox"
            className="text-primary underline-offset-4 hover:underline focus-visible:underline outline-none"
          >
            {t('mailbox.showAll')}
          </Link>
        </p>
      )}
      {sorted.length === 0 ? (
        <EmptyState
          icon={InboxIcon}
          title={t('mailbox.emptyTitle')}
          description={t('mailbox.emptyDescription')}
          testId="mailbox-empty"
        >
          <Link
            href="/signin"
            className="text-sm font-medium text-primary underline-offset-4 hover:underline focus-visible:underline outline-none"
          >
            {t('mailbox.toSignin')}
          </Link>
        </EmptyState>
      ) : (
        <ol className="grid gap-4">
          {sorted.map((mail) => (
            <li key={mail.id}>
              <Card className="gap-3 py-4" data-testid="mail">
                <CardHeader className="px-4">
                  <CardTitle className="text-base">{mail.subject}</CardTitle>
                  <CardDescription>
                    {t('mailbox.to', { to: mail.to })} · {formatDateTime(mail.createdAt)}
                  </CardDescription>
                </CardHeader>
                <CardContent className="grid gap-3 px-4">
                  {mail.links.length > 0 && (
                    <ul className="grid gap-1">
                      {mail.links.map((link, index) => (
                        <li key={index}>
                          <a
                            href={link}
                            data-testid="mail-link"
                            className="text-sm break-all text-primary underline underline-offset-4 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 rounded-sm"
                          >
                            {link}
                          </a>
                        </li>
                      ))}
                    </ul>
                  )}
                  <details className="text-sm">
                    <summary className="cursor-pointer text-muted-foreground outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 rounded-sm">
                      {t('mailbox.showText')}
                    </summary>
                    <pre className="mt-2 overflow-x-auto rounded-md bg-muted p-3 font-mono text-xs whitespace-pre-wrap">
                      {mail.text}
                    </pre>
                  </details>
                </CardContent>
              </Card>
            </li>
          ))}
        </ol>
      )}
    </BareLayout>
  )
}

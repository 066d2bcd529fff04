import { useEffect, useState } from 'react'
import { router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { CheckIcon, CopyIcon, KeyRoundIcon, PlusIcon, TriangleAlertIcon } from 'lucide-react'
import type { ApiTokenDto } from '#shared/types'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { EmptyState } from '~/components/empty_state'
import { useCopy } from '~/hooks/use_copy'
import { formatDate } from '~/lib/format'

export interface CreatedToken {
  id: string
  name: string
  value: string
}

function CreateTokenDialog({
  open,
  onOpenChange,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const form = useForm({ name: '' })

  useEffect(() => {
    if (!open) {
      form.reset()
      form.clearErrors()
    }
  }, [open])

  function submit(event: React.FormEvent) {
    event.preventDefault()
    form.post('/settings/account/keys', {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => onOpenChange(false),
    })
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('settings.keys.createTitle')}</DialogTitle>
            <DialogDescription>{t('settings.keys.createDescription')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="token-name">{t('settings.keys.nameLabel')}</Label>
            <Input
              id="token-name"
              data-testid="token-name"
              value={form.data.name}
              onChange={(e) => form.setData('name', e.target.value)}
              placeholder={t('settings.keys.namePlaceholder')}
              maxLength={100}
              autoFocus
              required
              aria-invalid={!!form.errors.name}
              aria-describedby={form.errors.name ? 'token-name-error' : undefined}
            />
            <FieldError id="token-name-error">{form.errors.name}</FieldError>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" data-testid="token-submit" disabled={form.processing}>
              {form.processing ? t('common.creating') : t('settings.keys.createSubmit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function CreatedTokenBox({ token }: { token: CreatedToken }) {
  const { t } = useTranslation()
  const { copied, copy } = useCopy()
  return (
    <div
      role="status"
      data-testid="created-token"
      className="grid gap-3 rounded-lg border border-primary/40 bg-primary/5 p-4"
    >
      <p className="text-sm font-medium">{t('settings.keys.createdTitle', { name: token.name })}</p>
      <div className="flex items-center gap-2">
        <code
          data-testid="created-token-value"
          className="min-w-0 flex-1 rounded-md border bg-background px-3 py-2 font-mono text-sm break-all"
        >
          {token.value}
        </code>
        <Button
          variant="outline"
          size="sm"
          onClick={() => void copy(token.value)}
          data-testid="copy-token"
          data-copied={copied || undefined}
          aria-live="polite"
        >
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
          {copied ? t('common.copied') : t('common.copy')}
        </Button>
      </div>
      <p className="flex items-start gap-2 text-xs text-muted-foreground">
        <TriangleAlertIcon aria-hidden className="mt-0.5 size-3.5 shrink-0 text-warning" />
        {t('settings.keys.createdWarning')}
      </p>
    </div>
  )
}

export function KeysTab({
  apiTokens,
  createdToken,
}: {
  apiTokens: ApiTokenDto[]
  createdToken: CreatedToken | null
}) {
  const { t } = useTranslation()
  const [creating, setCreating] = useState(false)
  const tokens = apiTokens ?? []

  return (
    <div className="grid gap-6">
      <div className="flex flex-wrap items-start justify-between gap-4">
        <p className="max-w-prose text-sm text-muted-foreground">
          {t('settings.keys.description')}
        </p>
        <Button onClick={() => setCreating(true)} data-testid="create-token">
          <PlusIcon aria-hidden />
          {t('settings.keys.create')}
        </Button>
      </div>

      {createdToken && <CreatedTokenBox token={createdToken} />}

      {tokens.length === 0 ? (
        <EmptyState
          icon={KeyRoundIcon}
          title={t('settings.keys.emptyTitle')}
          description={t('settings.keys.emptyDescription')}
          testId="tokens-empty"
        />
      ) : (
        <div className="overflow-x-auto rounded-lg border">
          <table className="w-full text-sm">
            <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
              <tr>
                <th scope="col" className="px-4 py-2 font-medium">
                  {t('settings.keys.columns.name')}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {t('settings.keys.columns.created')}
                </th>
                <th scope="col" className="px-4 py-2 font-medium">
                  {t('settings.keys.columns.lastUsed')}
                </th>
                <th scope="col" className="px-4 py-2">
                  <span className="sr-only">{t('common.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <tr key={token.id} className="border-t" data-testid="token-row">
                  <td className="px-4 py-2 font-medium">{token.name}</td>
                  <td className="px-4 py-2 text-muted-foreground">{formatDate(token.createdAt)}</td>
                  <td className="px-4 py-2 text-muted-foreground">
                    {token.lastUsedAt ? formatDate(token.lastUsedAt) : t('settings.keys.neverUsed')}
                  </td>
                  <td className="px-4 py-2 text-right">
                    <ConfirmDialog
                      trigger={
                        <Button
                          variant="ghost"
                          size="sm"
                          className="text-destructive"
                          data-testid="revoke-token"
                        >
                          {t('settings.keys.revoke')}
                        </Button>
                      }
                      title={t('settings.keys.revokeTitle', { name: token.name })}
                      description={t('settings.keys.revokeDescription')}
                      confirmLabel={t('settings.keys.revoke')}
                      onConfirm={() =>
                        router.delete(`/settings/account/keys/${token.id}`, {
                          preserveScroll: true,
                          preserveState: true,
                        })
                      }
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <CreateTokenDialog open={creating} onOpenChange={setCreating} />
    </div>
  )
}

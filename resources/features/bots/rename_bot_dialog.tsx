import { useEffect } from 'react'
import { useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
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
import type { BotSummaryDto } from './types'

export function RenameBotDialog({
  bot,
  open,
  onOpenChange,
}: {
  bot: BotSummaryDto
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const form = useForm({ name: bot.name })

  useEffect(() => {
    if (open) {
      form.setData('name', bot.name)
      form.clearErrors()
    }
  }, [open, bot.name])

  function submit(event: React.FormEvent) {
    event.preventDefault()
    const name = form.data.name.trim()
    // A blank name, or the same one, changes nothing.
    if (!name || name === bot.name) {
      onOpenChange(false)
      return
    }
    form.transform(() => ({ name }))
    form.patch(`/bots/${bot.id}`, {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => onOpenChange(false),
    })
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="rename-bot-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('bots.rename.title')}</DialogTitle>
            <DialogDescription>
              {t('bots.rename.description', { name: bot.name })}
            </DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor={`rename-bot-${bot.id}`}>{t('bots.create.nameLabel')}</Label>
            <Input
              id={`rename-bot-${bot.id}`}
              data-testid="rename-bot-name"
              value={form.data.name}
              onChange={(e) => form.setData('name', e.target.value)}
              onFocus={(e) => e.currentTarget.select()}
              maxLength={255}
              autoFocus
              aria-invalid={!!form.errors.name}
              aria-describedby={form.errors.name ? `rename-bot-${bot.id}-error` : undefined}
            />
            <FieldError id={`rename-bot-${bot.id}-error`}>{form.errors.name}</FieldError>
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" data-testid="rename-bot-submit" disabled={form.processing}>
              {t('common.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

import { useEffect } from 'react'
import { useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { FieldError, FieldHint, Label } from '~/components/ui/label'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'

/** "New workspace": an optional name; the server picks "{name}'s workspace" when it is empty. */
export function NewWorkspaceDialog({
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
    form.transform((data) => (data.name.trim() ? { name: data.name.trim() } : {}))
    form.post('/workspaces', { onSuccess: () => onOpenChange(false) })
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>{t('workspace.new.title')}</DialogTitle>
            <DialogDescription>{t('workspace.new.description')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="new-workspace-name">{t('workspace.new.nameLabel')}</Label>
            <Input
              id="new-workspace-name"
              data-testid="new-workspace-name"
              value={form.data.name}
              onChange={(e) => form.setData('name', e.target.value)}
              placeholder={t('workspace.new.namePlaceholder')}
              maxLength={100}
              autoFocus
              aria-invalid={!!form.errors.name}
              aria-describedby={
                form.errors.name ? 'new-workspace-name-error' : 'new-workspace-name-hint'
              }
            />
            {form.errors.name ? (
              <FieldError id="new-workspace-name-error">{form.errors.name}</FieldError>
            ) : (
              <FieldHint id="new-workspace-name-hint">{t('workspace.new.nameHint')}</FieldHint>
            )}
          </div>
          <DialogFooter>
            <Button variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" data-testid="new-workspace-submit" disabled={form.processing}>
              {form.processing ? t('common.creating') : t('workspace.new.submit')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

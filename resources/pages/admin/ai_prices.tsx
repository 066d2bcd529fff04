import { useEffect, useState } from 'react'
import { Head, router, useForm } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { toast } from 'sonner'
import { CoinsIcon, PencilIcon, PlusIcon, Trash2Icon } from 'lucide-react'
import type { AiCreditsGranted, AiPriceRow } from '#shared/ai_credits'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { AdminNav } from '~/features/admin/admin_nav'
import { formatCredits } from '~/features/ai_credits/format_credits'
import { EmptyState } from '~/components/empty_state'
import { ConfirmDialog } from '~/components/confirm_dialog'
import { Badge } from '~/components/ui/badge'
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
import { Tooltip, TooltipContent, TooltipTrigger } from '~/components/ui/tooltip'
import { formatNumber } from '~/lib/format'
import { showToast } from '~/lib/toast'

interface Props {
  prices: AiPriceRow[]
  defaultModel: string
  initialCredits: number
  granted: AiCreditsGranted | null
}

/** Credits one million tokens cost at a price of `tokensPerCredit`. */
function perMillion(tokensPerCredit: number) {
  return formatCredits(1_000_000 / tokensPerCredit, 4)
}

/** /admin/ai-prices: the AI price table (tokens per credit) and credits for users. */
export default function AdminAiPrices({ prices, defaultModel, initialCredits, granted }: Props) {
  const { t } = useTranslation()
  // null: closed; 'new': adding a row; a row: editing it.
  const [editing, setEditing] = useState<AiPriceRow | 'new' | null>(null)

  function remove(row: AiPriceRow) {
    router.delete(`/admin/ai-prices/${row.id}`, {
      preserveScroll: true,
      onSuccess: () =>
        // Undo is cheap: the row is three values, added back as they were.
        toast.success(t('adminAiPrices.deleted'), {
          description: row.model,
          action: {
            label: t('adminAiPrices.undo'),
            onClick: () =>
              router.post(
                '/admin/ai-prices',
                { model: row.model, inputToken: row.inputToken, outputToken: row.outputToken },
                {
                  preserveScroll: true,
                  onSuccess: () => showToast('success', t('adminAiPrices.restored'), row.model),
                }
              ),
          },
        }),
    })
  }

  return (
    <AppLayout>
      <Head title={t('adminAiPrices.title')} />
      <PageHeader
        title={t('adminAiPrices.title')}
        description={t('adminAiPrices.description')}
        actions={
          <Button onClick={() => setEditing('new')} data-testid="ai-price-add">
            <PlusIcon aria-hidden />
            {t('adminAiPrices.add')}
          </Button>
        }
      />
      <AdminNav />
      <div className="grid gap-6 p-6">
        <section
          className="grid gap-2 rounded-lg border bg-muted/20 p-4 text-sm"
          aria-labelledby="ai-price-formula"
          data-testid="ai-price-formula"
        >
          <h2 id="ai-price-formula" className="font-semibold">
            {t('adminAiPrices.formulaTitle')}
          </h2>
          <p>
            <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-xs">
              {t('adminAiPrices.formula')}
            </code>
          </p>
          <p className="text-muted-foreground">{t('adminAiPrices.formulaExample')}</p>
          <p className="text-muted-foreground">
            {t('adminAiPrices.formulaDefault', { model: defaultModel, count: initialCredits })}
          </p>
          <p className="text-muted-foreground">{t('adminAiPrices.formulaNoCredits')}</p>
        </section>

        {prices.length === 0 ? (
          <EmptyState
            icon={CoinsIcon}
            title={t('adminAiPrices.emptyTitle')}
            description={t('adminAiPrices.emptyDescription', { model: defaultModel })}
            testId="ai-prices-empty"
          >
            <Button onClick={() => setEditing('new')}>{t('adminAiPrices.add')}</Button>
          </EmptyState>
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm" data-testid="ai-prices-table">
              <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('adminAiPrices.columns.model')}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    {t('adminAiPrices.columns.inputToken')}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    {t('adminAiPrices.columns.outputToken')}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    {t('adminAiPrices.columns.perMillion')}
                  </th>
                  <th scope="col" className="px-4 py-2 text-right font-medium">
                    <span className="sr-only">{t('common.actions')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {prices.map((row) => (
                  <tr
                    key={row.id}
                    className="border-t"
                    data-testid="ai-price-row"
                    data-model={row.model}
                  >
                    <td className="px-4 py-2">
                      <div className="flex items-center gap-2">
                        <code className="font-mono text-xs">{row.model}</code>
                        {row.isDefault && (
                          <Badge variant="secondary">{t('adminAiPrices.defaultBadge')}</Badge>
                        )}
                      </div>
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {formatNumber(row.inputToken)}
                    </td>
                    <td className="px-4 py-2 text-right tabular-nums">
                      {formatNumber(row.outputToken)}
                    </td>
                    <td className="px-4 py-2 text-right text-muted-foreground tabular-nums">
                      {perMillion(row.inputToken)} / {perMillion(row.outputToken)}
                    </td>
                    <td className="px-4 py-2">
                      <div className="flex justify-end gap-1">
                        <Button
                          variant="ghost"
                          size="icon"
                          onClick={() => setEditing(row)}
                          aria-label={t('adminAiPrices.edit', { model: row.model })}
                          data-testid="ai-price-edit"
                        >
                          <PencilIcon aria-hidden />
                        </Button>
                        {row.isDefault ? (
                          <Tooltip>
                            <TooltipTrigger asChild>
                              {/* A disabled button gets no hover: the span carries the tooltip. */}
                              <span tabIndex={0} className="rounded-md">
                                <Button
                                  variant="ghost"
                                  size="icon"
                                  disabled
                                  aria-label={t('adminAiPrices.defaultLocked')}
                                >
                                  <Trash2Icon aria-hidden />
                                </Button>
                              </span>
                            </TooltipTrigger>
                            <TooltipContent>{t('adminAiPrices.defaultLocked')}</TooltipContent>
                          </Tooltip>
                        ) : (
                          <ConfirmDialog
                            trigger={
                              <Button
                                variant="ghost"
                                size="icon"
                                aria-label={t('adminAiPrices.delete', { model: row.model })}
                                data-testid="ai-price-delete"
                              >
                                <Trash2Icon aria-hidden />
                              </Button>
                            }
                            title={t('adminAiPrices.deleteTitle', { model: row.model })}
                            description={t('adminAiPrices.deleteDescription', {
                              model: defaultModel,
                            })}
                            confirmLabel={t('adminAiPrices.deleteConfirm')}
                            onConfirm={() => remove(row)}
                          />
                        )}
                      </div>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}

        <GrantCreditsForm granted={granted} />
      </div>

      <PriceDialog
        row={editing === 'new' ? null : editing}
        open={editing !== null}
        onOpenChange={(open) => !open && setEditing(null)}
      />
    </AppLayout>
  )
}

function PriceDialog({
  row,
  open,
  onOpenChange,
}: {
  /** null: a new row. */
  row: AiPriceRow | null
  open: boolean
  onOpenChange: (open: boolean) => void
}) {
  const { t } = useTranslation()
  const form = useForm({ model: '', inputToken: '', outputToken: '' })

  useEffect(() => {
    if (!open) return
    form.setData({
      model: row?.model ?? '',
      inputToken: row ? String(row.inputToken) : '',
      outputToken: row ? String(row.outputToken) : '',
    })
    form.clearErrors()
  }, [open, row])

  function submit(event: React.FormEvent) {
    event.preventDefault()
    const options = {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => {
        onOpenChange(false)
        showToast(
          'success',
          row ? t('adminAiPrices.saved') : t('adminAiPrices.added'),
          form.data.model.trim()
        )
      },
    }
    // Blank fields go as null, so the server answers "required" rather than a length or range.
    form.transform((data) => ({
      model: data.model.trim() || null,
      inputToken: data.inputToken.trim() || null,
      outputToken: data.outputToken.trim() || null,
    }))
    if (row) form.put(`/admin/ai-prices/${row.id}`, options)
    else form.post('/admin/ai-prices', options)
  }

  const fields = [
    { key: 'inputToken', label: t('adminAiPrices.dialog.inputLabel') },
    { key: 'outputToken', label: t('adminAiPrices.dialog.outputLabel') },
  ] as const

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-md" data-testid="ai-price-dialog">
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>
              {row
                ? t('adminAiPrices.dialog.editTitle', { model: row.model })
                : t('adminAiPrices.dialog.addTitle')}
            </DialogTitle>
            <DialogDescription>{t('adminAiPrices.dialog.description')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="ai-price-model">{t('adminAiPrices.dialog.modelLabel')}</Label>
            <Input
              id="ai-price-model"
              value={form.data.model}
              onChange={(e) => form.setData('model', e.target.value)}
              placeholder={t('adminAiPrices.dialog.modelPlaceholder')}
              maxLength={191}
              disabled={row?.isDefault}
              autoFocus={!row?.isDefault}
              aria-invalid={!!form.errors.model}
              aria-describedby="ai-price-model-hint ai-price-model-error"
              data-testid="ai-price-model"
            />
            {row?.isDefault && (
              <FieldHint id="ai-price-model-hint">
                {t('adminAiPrices.dialog.modelDefaultHint')}
              </FieldHint>
            )}
            <FieldError id="ai-price-model-error">{form.errors.model}</FieldError>
          </div>
          {fields.map((field) => (
            <div key={field.key} className="grid gap-2">
              <Label htmlFor={`ai-price-${field.key}`}>{field.label}</Label>
              <Input
                id={`ai-price-${field.key}`}
                type="number"
                inputMode="decimal"
                min={0}
                step="any"
                value={form.data[field.key]}
                onChange={(e) => form.setData(field.key, e.target.value)}
                aria-invalid={!!form.errors[field.key]}
                aria-describedby={`ai-price-${field.key}-error`}
                data-testid={`ai-price-${field.key}`}
              />
              <FieldError id={`ai-price-${field.key}-error`}>{form.errors[field.key]}</FieldError>
            </div>
          ))}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={form.processing} data-testid="ai-price-submit">
              {t('common.save')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  )
}

function GrantCreditsForm({ granted }: { granted: AiCreditsGranted | null }) {
  const { t } = useTranslation()
  const form = useForm({ email: '', amount: '' })

  function submit(event: React.FormEvent) {
    event.preventDefault()
    form.transform((data) => ({
      email: data.email.trim() || null,
      amount: data.amount.trim() || null,
    }))
    form.post('/admin/ai-credits', {
      preserveScroll: true,
      preserveState: true,
      onSuccess: () => form.reset(),
    })
  }

  // The new balance comes back flashed with the page that follows the grant.
  useEffect(() => {
    if (!granted) return
    showToast(
      'success',
      t('adminAiPrices.grant.done', {
        email: granted.email,
        credits: formatCredits(granted.credits),
      })
    )
  }, [granted])

  return (
    <section
      className="grid gap-4 rounded-lg border p-4"
      aria-labelledby="ai-credits-grant"
      data-testid="ai-credits-grant"
    >
      <div className="grid gap-1">
        <h2 id="ai-credits-grant" className="text-sm font-semibold">
          {t('adminAiPrices.grant.title')}
        </h2>
        <p className="text-sm text-muted-foreground">{t('adminAiPrices.grant.description')}</p>
      </div>
      <form onSubmit={submit} className="flex flex-wrap items-start gap-3" noValidate>
        <div className="grid min-w-64 flex-1 gap-2">
          <Label htmlFor="ai-credits-email">{t('adminAiPrices.grant.emailLabel')}</Label>
          <Input
            id="ai-credits-email"
            type="email"
            autoComplete="off"
            value={form.data.email}
            onChange={(e) => form.setData('email', e.target.value)}
            placeholder={t('adminAiPrices.grant.emailPlaceholder')}
            aria-invalid={!!form.errors.email}
            aria-describedby="ai-credits-email-error"
            data-testid="ai-credits-email"
          />
          <FieldError id="ai-credits-email-error">{form.errors.email}</FieldError>
        </div>
        <div className="grid w-40 gap-2">
          <Label htmlFor="ai-credits-amount">{t('adminAiPrices.grant.amountLabel')}</Label>
          <Input
            id="ai-credits-amount"
            type="number"
            inputMode="decimal"
            min={0}
            step="any"
            value={form.data.amount}
            onChange={(e) => form.setData('amount', e.target.value)}
            aria-invalid={!!form.errors.amount}
            aria-describedby="ai-credits-amount-hint ai-credits-amount-error"
            data-testid="ai-credits-amount"
          />
          <FieldHint id="ai-credits-amount-hint">{t('adminAiPrices.grant.amountHint')}</FieldHint>
          <FieldError id="ai-credits-amount-error">{form.errors.amount}</FieldError>
        </div>
        <Button
          type="submit"
          className="mt-[1.375rem]"
          disabled={form.processing}
          data-testid="ai-credits-submit"
        >
          {t('adminAiPrices.grant.submit')}
        </Button>
      </form>
    </section>
  )
}

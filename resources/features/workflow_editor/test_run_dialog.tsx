import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PlayIcon } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '~/components/ui/dialog'

/**
 * A test run with a sample payload (docs/workflows.md "Test runs"): the JSON a webhook or
 * event trigger would receive. The draft runs as it is now, published or not.
 */
export function TestRunDialog({
  open,
  onOpenChange,
  onStart,
}: {
  open: boolean
  onOpenChange: (open: boolean) => void
  onStart: (input: unknown) => void
}) {
  const { t } = useTranslation()
  const [text, setText] = useState('{\n  \n}')
  const [error, setError] = useState<string | null>(null)

  function submit() {
    let input: unknown = {}
    if (text.trim()) {
      try {
        input = JSON.parse(text)
      } catch {
        setError(t('workflowTestRun.invalid'))
        return
      }
    }
    setError(null)
    onOpenChange(false)
    onStart(input)
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent data-testid="test-run-dialog">
        <DialogHeader>
          <DialogTitle>{t('workflowTestRun.title')}</DialogTitle>
          <DialogDescription>{t('workflowTestRun.description')}</DialogDescription>
        </DialogHeader>
        <div className="grid gap-2">
          <Label htmlFor="test-run-payload">{t('workflowTestRun.payload')}</Label>
          <Textarea
            id="test-run-payload"
            data-testid="test-run-payload"
            className="min-h-40 font-mono text-xs"
            value={text}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'test-run-payload-error' : undefined}
            onChange={(event) => setText(event.target.value)}
          />
          {error && (
            <p
              id="test-run-payload-error"
              data-testid="test-run-payload-error"
              className="text-xs text-destructive"
            >
              {error}
            </p>
          )}
        </div>
        <DialogFooter>
          <Button data-testid="test-run-start" onClick={submit}>
            <PlayIcon aria-hidden /> {t('workflowTestRun.start')}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  )
}

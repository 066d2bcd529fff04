import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Check, Copy } from 'lucide-react'
import { Button } from '~/components/ui/button'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '~/components/ui/tabs'
import { useCopy } from '~/hooks/use_copy'
import { cn } from '~/lib/utils'

export type EmbedMode = 'standard' | 'popup' | 'bubble'
type Platform = 'html' | 'react' | 'wordpress'

const MODES: EmbedMode[] = ['standard', 'popup', 'bubble']
const PLATFORMS: Platform[] = ['html', 'react', 'wordpress']

/** A JS string literal: publicIds are restricted, hosts are not (custom domains). */
function literal(value: string) {
  return JSON.stringify(value)
}

/** The init call of each mode, as the embed script (resources/embed/embed.ts) expects it. */
function initCall(mode: EmbedMode, publicId: string, indent: string) {
  const id = literal(publicId)
  switch (mode) {
    case 'standard':
      return `${indent}Flowcraft.initStandard({ publicId: ${id}, element: "#flowcraft-chat" })`
    case 'popup':
      return `${indent}Flowcraft.initPopup({ publicId: ${id}, autoShowDelay: 3000 })`
    case 'bubble':
      return [
        `${indent}Flowcraft.initBubble({`,
        `${indent}  publicId: ${id},`,
        `${indent}  button: { backgroundColor: "#2563eb" },`,
        `${indent}})`,
      ].join('\n')
  }
}

export function htmlSnippet(mode: EmbedMode, publicId: string, apiHost: string) {
  const host = apiHost.replace(/\/$/, '')
  const lines: string[] = []
  if (mode === 'standard') {
    lines.push('<div id="flowcraft-chat" style="width: 100%; height: 600px"></div>')
  }
  lines.push(`<script src=${literal(`${host}/embed.js`)}></script>`)
  lines.push('<script>', initCall(mode, publicId, '  '), '</script>')
  if (mode === 'popup') {
    lines.push('<button type="button" onclick="Flowcraft.open()">💬</button>')
  }
  return lines.join('\n')
}

export function reactSnippet(mode: EmbedMode, publicId: string, apiHost: string) {
  const host = apiHost.replace(/\/$/, '')
  const render =
    mode === 'standard'
      ? `  return <div id="flowcraft-chat" style={{ width: '100%', height: 600 }} />`
      : mode === 'popup'
        ? `  return <button type="button" onClick={() => window.Flowcraft?.open()}>💬</button>`
        : '  return null'
  return `import { useEffect } from 'react'

declare global {
  interface Window {
    Flowcraft?: any
  }
}

function loadFlowcraft(): Promise<any> {
  if (window.Flowcraft) return Promise.resolve(window.Flowcraft)
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = ${literal(`${host}/embed.js`)}
    script.onload = () => resolve(window.Flowcraft)
    script.onerror = reject
    document.head.appendChild(script)
  })
}

export function FlowcraftChat() {
  useEffect(() => {
    loadFlowcraft().then((Flowcraft) => {
${initCall(mode, publicId, '      ')}
    })
  }, [])
${render}
}
`
}

function Snippet({ code, label }: { code: string; label: string }) {
  const { t } = useTranslation()
  const { copied, copy } = useCopy()
  return (
    // min-w-0 down from the dialog's grid: long code lines scroll inside the <pre> instead of
    // widening the dialog and pushing the Copy button out of sight.
    <div className="relative min-w-0">
      <pre
        aria-label={label}
        tabIndex={0}
        className="max-h-80 overflow-auto rounded-md border bg-muted p-3 pe-24 font-mono text-xs leading-relaxed"
      >
        <code>{code}</code>
      </pre>
      <Button
        variant="outline"
        size="sm"
        className="absolute top-2 right-2"
        onClick={() => void copy(code)}
        data-testid="embed-copy"
      >
        {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
        {copied ? t('viewer.embed.copied') : t('viewer.embed.copy')}
      </Button>
      <span className="sr-only" aria-live="polite">
        {copied ? t('viewer.embed.copied') : ''}
      </span>
    </div>
  )
}

function ModePicker({
  value,
  onChange,
}: {
  value: EmbedMode
  onChange: (mode: EmbedMode) => void
}) {
  const { t } = useTranslation()
  const labelId = useId()
  return (
    <div className="grid gap-1.5">
      <span id={labelId} className="text-sm font-medium">
        {t('viewer.embed.mode')}
      </span>
      <div role="group" aria-labelledby={labelId} className="flex flex-wrap gap-2">
        {MODES.map((mode) => (
          <Button
            key={mode}
            variant="outline"
            size="sm"
            aria-pressed={value === mode}
            onClick={() => onChange(mode)}
            className={cn(
              value === mode && 'border-primary bg-primary/10 text-primary hover:bg-primary/15'
            )}
            data-testid={`embed-mode-${mode}`}
          >
            {t(`viewer.embed.modes.${mode}`)}
          </Button>
        ))}
      </div>
      <p className="text-xs text-muted-foreground">{t(`viewer.embed.modeHints.${value}`)}</p>
    </div>
  )
}

export interface EmbedSnippetsProps {
  publicId: string
  /** The origin serving the bot and embed.js (the custom domain when there is one). */
  apiHost: string
}

/** The Share tab's embed codes: one per platform and display mode, ready to copy. */
export function EmbedSnippets({ publicId, apiHost }: EmbedSnippetsProps) {
  const { t } = useTranslation()
  const [mode, setMode] = useState<EmbedMode>('standard')
  const snippets = useMemo(
    () => ({
      html: htmlSnippet(mode, publicId, apiHost),
      react: reactSnippet(mode, publicId, apiHost),
    }),
    [mode, publicId, apiHost]
  )
  return (
    <Tabs defaultValue="html" className="min-w-0 gap-4" data-testid="embed-snippets">
      <TabsList>
        {PLATFORMS.map((platform) => (
          <TabsTrigger key={platform} value={platform}>
            {t(`viewer.embed.platforms.${platform}`)}
          </TabsTrigger>
        ))}
      </TabsList>
      <ModePicker value={mode} onChange={setMode} />
      <TabsContent value="html" className="grid min-w-0 gap-2">
        <p className="text-sm text-muted-foreground">{t('viewer.embed.htmlHelp')}</p>
        <Snippet code={snippets.html} label={t('viewer.embed.platforms.html')} />
      </TabsContent>
      <TabsContent value="react" className="grid min-w-0 gap-2">
        <p className="text-sm text-muted-foreground">{t('viewer.embed.reactHelp')}</p>
        <Snippet code={snippets.react} label={t('viewer.embed.platforms.react')} />
      </TabsContent>
      <TabsContent value="wordpress" className="grid min-w-0 gap-2">
        <ol className="list-decimal space-y-1 ps-5 text-sm text-muted-foreground">
          <li>{t('viewer.embed.wordpress.step1')}</li>
          <li>
            {mode === 'standard'
              ? t('viewer.embed.wordpress.step2Standard')
              : t('viewer.embed.wordpress.step2Floating')}
          </li>
          <li>{t('viewer.embed.wordpress.step3')}</li>
        </ol>
        <Snippet code={snippets.html} label={t('viewer.embed.platforms.wordpress')} />
      </TabsContent>
    </Tabs>
  )
}

import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LanguagesIcon, Loader2Icon, SparklesIcon, XIcon } from 'lucide-react'
import {
  botTexts,
  languagesOf,
  LANGUAGE_TAG,
  missingTexts,
  normalizeTag,
  translationsOf,
  type TranslatableText,
} from '#shared/bot/translations'
import {
  DRAFT_MAX_TEXTS,
  DRAFT_MAX_TEXT_LENGTH,
  type DraftTranslationsResponse,
} from '#shared/bot/translation_drafts'
import { errorDescription, jsonFetch } from '~/lib/http'
import { Button } from '~/components/ui/button'
import { Input } from '~/components/ui/input'
import { Label } from '~/components/ui/label'
import { Textarea } from '~/components/ui/textarea'
import { useBotEditor, useBotEditorApi } from './bot_editor_store'
import { useBotWriter } from './bot_paths'
import { useEditorPlugins } from './editor_plugins'

/**
 * The Languages panel of the flow (docs/editor.md "Languages"): the bot's default language
 * and its translations, the texts a language lacks (a click opens the block), a field per
 * text with the default language's text as placeholder, and "Draft with AI" that fills the
 * missing ones through the workspace's AI credential as one undoable edit, to review.
 */
export function LanguagesDock() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const readOnly = useBotEditor((state) => state.readOnly)
  if (readOnly) return null
  if (open) return <LanguagesPanel onClose={() => setOpen(false)} />
  return (
    <Button
      size="sm"
      variant="outline"
      data-testid="languages-open"
      className="absolute top-14 right-3 z-[5] shadow-sm"
      onClick={() => setOpen(true)}
    >
      <LanguagesIcon aria-hidden /> {t('botLanguages.title')}
    </Button>
  )
}

function languageName(tag: string, uiLanguage: string) {
  try {
    return new Intl.DisplayNames([uiLanguage], { type: 'language' }).of(tag) ?? tag
  } catch {
    return tag
  }
}

function LanguagesPanel({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const api = useBotEditorApi()
  const write = useBotWriter('settings')
  const plugins = useEditorPlugins()
  const settings = useBotEditor((state) => state.history.present.settings)
  const groups = useBotEditor((state) => state.history.present.groups)
  const languages = languagesOf(settings) ?? { default: 'en', others: [] }
  const translations = translationsOf(settings)
  const [editing, setEditing] = useState<string | undefined>(languages.others[0])
  const current = editing && languages.others.includes(editing) ? editing : languages.others[0]
  const [newTag, setNewTag] = useState('')
  const [tagError, setTagError] = useState<string>()
  const [missingOnly, setMissingOnly] = useState(true)
  const botId = useBotEditor((state) => state.botId)
  const [drafting, setDrafting] = useState<string>()
  const [draftState, setDraftState] = useState<{
    language: string
    error?: { title: string; description?: string }
    count?: number
  }>()
  // Texts the AI drafted and the builder has not touched since: marked for review.
  const [drafted, setDrafted] = useState<Record<string, Set<string>>>({})

  const texts = useMemo(
    () => botTexts({ groups }, (type) => plugins.get(type)?.form),
    [groups, plugins]
  )
  const table = current ? translations[current] : undefined
  const missing = useMemo(() => missingTexts(texts, table), [texts, table])
  // The texts missing when the list was opened stay listed while their translation is typed.
  const listed = useMemo(
    () =>
      new Set(
        missingTexts(
          texts,
          translationsOf(api.getState().history.present.settings)[current ?? '']
        ).map((text) => text.key)
      ),
    // Recomputed for another language or flow, not on each keystroke of a translation.
    [texts, current, missingOnly, api]
  )
  const shown = missingOnly ? texts.filter((text) => listed.has(text.key)) : texts

  async function draftWithAi(language: string, toDraft: TranslatableText[]) {
    if (drafting || toDraft.length === 0) return
    setDrafting(language)
    setDraftState(undefined)
    try {
      const drafts: Record<string, string> = {}
      for (let i = 0; i < toDraft.length; i += DRAFT_MAX_TEXTS) {
        const batch = toDraft.slice(i, i + DRAFT_MAX_TEXTS)
        const answer = await jsonFetch<DraftTranslationsResponse>(
          `/api/bots/${encodeURIComponent(botId)}/translations/draft`,
          {
            method: 'POST',
            body: {
              language,
              texts: batch.map((text) => ({
                key: text.key,
                source: text.source.slice(0, DRAFT_MAX_TEXT_LENGTH),
              })),
            },
          }
        )
        Object.assign(drafts, answer.drafts)
      }
      // A translation typed while the AI worked is the builder's: it stays.
      const now = translationsOf(api.getState().history.present.settings)[language] ?? {}
      const writes = Object.entries(drafts).filter(([key]) => !now[key]?.trim())
      if (writes.length > 0) {
        // One step of the history: Undo takes every draft back at once.
        write(
          writes.map(([key, text]) => [['translations', language, key], text]),
          `settings:translations:${language}:ai-draft:${Date.now()}`
        )
      }
      setDrafted((previous) => ({
        ...previous,
        [language]: new Set([...(previous[language] ?? []), ...writes.map(([key]) => key)]),
      }))
      setDraftState({ language, count: writes.length })
    } catch (error) {
      setDraftState({
        language,
        error: { title: (error as Error).message, description: errorDescription(error) },
      })
    } finally {
      setDrafting(undefined)
    }
  }

  function writeLanguages(next: { default: string; others: string[] }) {
    write([[['languages'], next]], 'settings:languages')
  }

  function addLanguage() {
    const typed = newTag.trim()
    if (!LANGUAGE_TAG.test(typed)) {
      setTagError(t('botLanguages.errors.tag'))
      return
    }
    const tag = normalizeTag(typed)
    if (tag === languages.default || languages.others.includes(tag)) {
      setTagError(t('botLanguages.errors.taken'))
      return
    }
    writeLanguages({ default: languages.default, others: [...languages.others, tag] })
    setEditing(tag)
    setNewTag('')
    setTagError(undefined)
  }

  function removeLanguage(tag: string) {
    if (
      !window.confirm(
        t('botLanguages.confirmRemove', { language: languageName(tag, i18n.language) })
      )
    )
      return
    write(
      [
        [
          ['languages'],
          { default: languages.default, others: languages.others.filter((o) => o !== tag) },
        ],
        [['translations', tag], undefined],
      ],
      'settings:languages'
    )
  }

  return (
    <aside
      data-testid="languages-panel"
      aria-label={t('botLanguages.title')}
      className="absolute inset-y-0 left-0 z-30 flex w-full flex-col border-r bg-background shadow-xl sm:w-[26rem]"
    >
      <header className="flex items-center gap-2 border-b px-4 py-3">
        <LanguagesIcon className="size-4" aria-hidden />
        <h2 className="text-sm font-semibold">{t('botLanguages.title')}</h2>
        <Button
          variant="ghost"
          size="icon-sm"
          className="ml-auto"
          aria-label={t('botLanguages.close')}
          data-testid="languages-close"
          onClick={onClose}
        >
          <XIcon />
        </Button>
      </header>
      <div className="grid gap-4 overflow-y-auto p-4">
        <p className="text-xs text-muted-foreground">{t('botLanguages.hint')}</p>
        <div className="grid gap-1.5">
          <Label htmlFor="languages-default">{t('botLanguages.default')}</Label>
          <Input
            id="languages-default"
            data-testid="languages-default"
            defaultValue={languages.default}
            key={languages.default}
            onBlur={(event) => {
              const typed = event.currentTarget.value.trim()
              if (!LANGUAGE_TAG.test(typed)) return
              const tag = normalizeTag(typed)
              if (tag === languages.default) return
              writeLanguages({ default: tag, others: languages.others.filter((o) => o !== tag) })
            }}
          />
          <p className="text-xs text-muted-foreground">
            {languageName(languages.default, i18n.language)} · {t('botLanguages.defaultHint')}
          </p>
        </div>

        <div className="grid gap-1.5">
          <Label htmlFor="languages-add">{t('botLanguages.add')}</Label>
          <form
            className="flex gap-2"
            onSubmit={(event) => {
              event.preventDefault()
              addLanguage()
            }}
          >
            <Input
              id="languages-add"
              data-testid="languages-add-input"
              placeholder="fr, de, pt-BR"
              value={newTag}
              aria-invalid={tagError ? true : undefined}
              aria-describedby={tagError ? 'languages-add-error' : undefined}
              onChange={(event) => {
                setNewTag(event.target.value)
                setTagError(undefined)
              }}
            />
            <Button type="submit" variant="outline" data-testid="languages-add">
              {t('botLanguages.addButton')}
            </Button>
          </form>
          {tagError && (
            <p id="languages-add-error" className="text-xs text-destructive" role="alert">
              {tagError}
            </p>
          )}
        </div>

        {languages.others.length === 0 ? (
          <p className="text-sm text-muted-foreground" data-testid="languages-empty">
            {t('botLanguages.empty')}
          </p>
        ) : (
          <div
            className="flex flex-wrap gap-2"
            role="tablist"
            aria-label={t('botLanguages.editing')}
          >
            {languages.others.map((tag) => {
              const count = missingTexts(texts, translations[tag]).length
              return (
                <span key={tag} className="inline-flex items-center rounded-md border">
                  <button
                    type="button"
                    role="tab"
                    aria-selected={tag === current}
                    data-testid={`languages-tab-${tag}`}
                    className={`px-2 py-1 text-sm ${tag === current ? 'bg-accent font-medium' : ''}`}
                    onClick={() => setEditing(tag)}
                  >
                    {languageName(tag, i18n.language)}{' '}
                    <span className="text-xs text-muted-foreground">
                      ({t('botLanguages.missingCount', { count })})
                    </span>
                  </button>
                  <button
                    type="button"
                    className="px-1.5 text-muted-foreground hover:text-destructive"
                    aria-label={t('botLanguages.remove', {
                      language: languageName(tag, i18n.language),
                    })}
                    data-testid={`languages-remove-${tag}`}
                    onClick={() => removeLanguage(tag)}
                  >
                    <XIcon className="size-3.5" />
                  </button>
                </span>
              )
            })}
          </div>
        )}

        {current && (
          <section className="grid gap-3" data-testid="languages-texts">
            <div className="flex items-center gap-2">
              <h3 className="text-sm font-semibold" data-testid="languages-missing-count">
                {t('botLanguages.missingIn', {
                  count: missing.length,
                  language: languageName(current, i18n.language),
                })}
              </h3>
              <label className="ml-auto flex items-center gap-1.5 text-xs">
                <input
                  type="checkbox"
                  checked={missingOnly}
                  data-testid="languages-missing-only"
                  onChange={(event) => setMissingOnly(event.target.checked)}
                />
                {t('botLanguages.missingOnly')}
              </label>
            </div>
            <div className="grid gap-1.5">
              <Button
                type="button"
                variant="outline"
                size="sm"
                className="justify-self-start"
                data-testid="languages-draft-ai"
                disabled={!!drafting || missing.length === 0}
                aria-busy={drafting === current ? true : undefined}
                onClick={() => draftWithAi(current, missing)}
              >
                {drafting === current ? (
                  <Loader2Icon className="animate-spin" aria-hidden />
                ) : (
                  <SparklesIcon aria-hidden />
                )}
                {drafting === current
                  ? t('botLanguages.draft.working')
                  : t('botLanguages.draft.button', {
                      language: languageName(current, i18n.language),
                    })}
              </Button>
              {draftState?.language === current && draftState.error && (
                <div
                  className="rounded-md border border-destructive/40 px-3 py-2 text-xs text-destructive"
                  role="alert"
                  data-testid="languages-draft-error"
                >
                  <p className="font-medium">{draftState.error.title}</p>
                  {draftState.error.description &&
                    draftState.error.description !== draftState.error.title && (
                      <p>{draftState.error.description}</p>
                    )}
                </div>
              )}
              {draftState?.language === current && draftState.count !== undefined && (
                <p
                  className="text-xs text-muted-foreground"
                  role="status"
                  data-testid="languages-draft-done"
                >
                  {draftState.count === 0
                    ? t('botLanguages.draft.none')
                    : t('botLanguages.draft.done', { count: draftState.count })}
                </p>
              )}
            </div>
            {shown.length === 0 && (
              <p className="text-sm text-muted-foreground" data-testid="languages-all-done">
                {texts.length === 0 ? t('botLanguages.noTexts') : t('botLanguages.allTranslated')}
              </p>
            )}
            <ul className="grid gap-3">
              {shown.map((text) => {
                const id = `translation-${text.key.replace(/[^\w-]/g, '_')}`
                const value = table?.[text.key] ?? ''
                return (
                  <li key={text.key} className="grid gap-1" data-testid="languages-text">
                    <div className="flex items-center gap-2">
                      <Label htmlFor={id} className="text-xs">
                        {text.label}
                      </Label>
                      {drafted[current]?.has(text.key) && (
                        <span
                          className="rounded bg-accent px-1.5 py-0.5 text-[10px] font-medium"
                          data-testid="languages-ai-draft"
                        >
                          {t('botLanguages.draft.badge')}
                        </span>
                      )}
                      <button
                        type="button"
                        className="ml-auto truncate text-xs text-primary underline-offset-2 hover:underline"
                        data-testid="languages-go-to-block"
                        onClick={() => api.getState().openBlock(text.blockId)}
                      >
                        {t('botLanguages.goToBlock')}
                      </button>
                    </div>
                    <Textarea
                      id={id}
                      rows={text.isRichText ? 3 : 1}
                      data-testid="languages-translation"
                      placeholder={text.source}
                      value={value}
                      onChange={(event) => {
                        write(
                          [[['translations', current, text.key], event.target.value || undefined]],
                          `settings:translations:${current}:${text.key}`
                        )
                        // Edited by the builder: reviewed.
                        if (drafted[current]?.has(text.key)) {
                          setDrafted((previous) => {
                            const next = new Set(previous[current])
                            next.delete(text.key)
                            return { ...previous, [current]: next }
                          })
                        }
                      }}
                    />
                  </li>
                )
              })}
            </ul>
          </section>
        )}
      </div>
    </aside>
  )
}

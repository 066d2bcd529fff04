import { useMemo, useState } from 'react'
import { Head, Link, router } from '@inertiajs/react'
import { useTranslation } from 'react-i18next'
import { PuzzleIcon, SearchIcon, TriangleAlertIcon } from 'lucide-react'
import { PLAN_LABELS, type PlanName } from '#shared/plans'
import { AppLayout, PageHeader } from '~/features/shell/app_layout'
import { AdminNav } from '~/features/admin/admin_nav'
import { PluginIcon } from '~/features/plugin_form/plugin_icon'
import { EmptyState } from '~/components/empty_state'
import { Input } from '~/components/ui/input'
import { Switch } from '~/components/ui/switch'
import { Badge } from '~/components/ui/badge'
import {
  Select,
  SelectContent,
  SelectItem,
  SelectTrigger,
  SelectValue,
} from '~/components/ui/select'
import { showToast } from '~/lib/toast'

export interface AdminPluginRow {
  id: string
  name: string
  description: string | null
  category: string
  version: number
  icon: string | null
  serves: string[]
  plans: Record<PlanName, boolean>
}

interface Props {
  plugins: AdminPluginRow[]
  plans: PlanName[]
  /** Plugins the server left out (a broken manifest, a missing file), with the reason. */
  leftOut?: { where: string; message: string }[]
}

const ALL = '__all__'

function switchKey(id: string, plan: PlanName) {
  return `${id}\u0000${plan}`
}

/** /admin/plugins: the marketplace switches, one per plugin and plan. */
export default function AdminPlugins({ plugins, plans, leftOut = [] }: Props) {
  const { t } = useTranslation()
  const [query, setQuery] = useState('')
  const [category, setCategory] = useState(ALL)
  // Optimistic values of the switches being saved; dropped when the visit ends.
  const [pending, setPending] = useState<Record<string, boolean>>({})

  const categories = useMemo(
    () => [...new Set(plugins.map((plugin) => plugin.category))].sort(),
    [plugins]
  )

  const groups = useMemo(() => {
    const needle = query.trim().toLowerCase()
    const visible = plugins.filter((plugin) => {
      if (category !== ALL && plugin.category !== category) return false
      if (!needle) return true
      return [plugin.name, plugin.id, plugin.description ?? '', plugin.category].some((text) =>
        text.toLowerCase().includes(needle)
      )
    })
    const byCategory = new Map<string, AdminPluginRow[]>()
    for (const plugin of visible) {
      byCategory.set(plugin.category, [...(byCategory.get(plugin.category) ?? []), plugin])
    }
    return [...byCategory.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, rows]) => ({ name, rows: rows.sort((a, b) => a.name.localeCompare(b.name)) }))
  }, [plugins, query, category])

  function categoryLabel(name: string) {
    return t(`adminPlugins.categories.${name}`, { defaultValue: name })
  }

  function toggle(plugin: AdminPluginRow, plan: PlanName, enabled: boolean) {
    const key = switchKey(plugin.id, plan)
    setPending((current) => ({ ...current, [key]: enabled }))
    const drop = () =>
      setPending((current) => {
        const rest = { ...current }
        delete rest[key]
        return rest
      })
    router.post(
      `/admin/plugins/${encodeURIComponent(plugin.id)}/plans/${plan}`,
      { enabled },
      {
        preserveScroll: true,
        preserveState: true,
        onError: () => {
          showToast('error', t('adminPlugins.toggleFailed'), plugin.name)
        },
        // On success the new props hold the saved value; on failure the old one comes back.
        onFinish: drop,
      }
    )
  }

  const total = groups.reduce((count, group) => count + group.rows.length, 0)

  return (
    <AppLayout>
      <Head title={t('adminPlugins.title')} />
      <PageHeader title={t('adminPlugins.title')} description={t('adminPlugins.description')} />
      <AdminNav />
      <div className="grid gap-4 p-6">
        {leftOut.length > 0 && (
          <section
            role="alert"
            data-testid="plugins-left-out"
            className="rounded-md border border-destructive/50 bg-destructive/5 p-4 text-sm"
          >
            <h2 className="flex items-center gap-2 font-medium text-destructive">
              <TriangleAlertIcon aria-hidden className="size-4" />
              {t('adminPlugins.leftOutTitle')}
            </h2>
            <p className="mt-1 text-muted-foreground">{t('adminPlugins.leftOutDescription')}</p>
            <ul className="mt-2 grid gap-1 font-mono text-xs">
              {leftOut.map((problem, index) => (
                <li key={index}>{problem.message}</li>
              ))}
            </ul>
          </section>
        )}
        <div className="flex flex-wrap items-center gap-2">
          <div className="relative min-w-56 flex-1 sm:max-w-sm">
            <SearchIcon
              aria-hidden
              className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
            />
            <Input
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
              placeholder={t('adminPlugins.searchPlaceholder')}
              aria-label={t('adminPlugins.search')}
              className="pl-9"
              data-testid="plugin-search"
            />
          </div>
          <Select value={category} onValueChange={setCategory}>
            <SelectTrigger
              className="w-48"
              aria-label={t('adminPlugins.category')}
              data-testid="plugin-category"
            >
              <SelectValue />
            </SelectTrigger>
            <SelectContent>
              <SelectItem value={ALL}>{t('adminPlugins.allCategories')}</SelectItem>
              {categories.map((name) => (
                <SelectItem key={name} value={name}>
                  {categoryLabel(name)}
                </SelectItem>
              ))}
            </SelectContent>
          </Select>
          <span className="text-sm text-muted-foreground" aria-live="polite">
            {t('adminPlugins.count', { count: total })}
          </span>
        </div>

        {total === 0 ? (
          <EmptyState
            icon={PuzzleIcon}
            title={
              plugins.length === 0
                ? t('adminPlugins.noPluginsTitle')
                : t('adminPlugins.noMatchTitle')
            }
            description={
              plugins.length === 0
                ? t('adminPlugins.noPluginsDescription')
                : t('adminPlugins.noMatchDescription')
            }
            testId="plugins-empty"
          />
        ) : (
          <div className="overflow-x-auto rounded-lg border">
            <table className="w-full text-sm">
              <thead className="bg-muted/40 text-left text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('adminPlugins.columns.plugin')}
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('adminPlugins.columns.category')}
                  </th>
                  <th scope="col" className="px-4 py-2 font-medium">
                    {t('adminPlugins.columns.version')}
                  </th>
                  {plans.map((plan) => (
                    <th key={plan} scope="col" className="px-3 py-2 text-center font-medium">
                      {PLAN_LABELS[plan] ?? plan}
                    </th>
                  ))}
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.name} data-testid="plugin-group">
                  <tr className="border-t bg-muted/20">
                    <th
                      scope="colgroup"
                      colSpan={3 + plans.length}
                      className="px-4 py-1.5 text-left text-xs font-semibold tracking-wide text-muted-foreground uppercase"
                    >
                      {categoryLabel(group.name)}
                    </th>
                  </tr>
                  {group.rows.map((plugin) => (
                    <tr
                      key={plugin.id}
                      className="border-t align-top"
                      data-testid="plugin-row"
                      data-plugin-id={plugin.id}
                    >
                      <td className="px-4 py-3">
                        <div className="flex items-start gap-3">
                          <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-md bg-primary/10 text-primary">
                            <PluginIcon id={plugin.id} icon={plugin.icon} className="size-4" />
                          </span>
                          <div className="grid min-w-0 gap-0.5">
                            <Link
                              href={`/admin/plugins/${encodeURIComponent(plugin.id)}`}
                              className="w-fit rounded-sm font-medium underline-offset-4 outline-none hover:underline focus-visible:ring-[3px] focus-visible:ring-ring/50"
                              data-testid="plugin-link"
                            >
                              {plugin.name}
                            </Link>
                            <code className="font-mono text-xs text-muted-foreground">
                              {plugin.id}
                            </code>
                            {plugin.description && (
                              <p className="max-w-md text-xs text-muted-foreground">
                                {plugin.description}
                              </p>
                            )}
                          </div>
                        </div>
                      </td>
                      <td className="px-4 py-3">
                        <div className="flex flex-wrap gap-1">
                          <Badge variant="secondary">{categoryLabel(plugin.category)}</Badge>
                          {plugin.serves.map((surface) => (
                            <Badge key={surface} variant="outline">
                              {t(`adminPlugins.serves.${surface}`, { defaultValue: surface })}
                            </Badge>
                          ))}
                        </div>
                      </td>
                      <td className="px-4 py-3 text-muted-foreground tabular-nums">
                        {t('adminPlugins.version', { version: plugin.version })}
                      </td>
                      {plans.map((plan) => {
                        const key = switchKey(plugin.id, plan)
                        const checked = pending[key] ?? plugin.plans[plan] ?? false
                        return (
                          <td key={plan} className="px-3 py-3 text-center">
                            <Switch
                              checked={checked}
                              onCheckedChange={(enabled) => toggle(plugin, plan, enabled)}
                              aria-busy={key in pending || undefined}
                              aria-label={t('adminPlugins.switchLabel', {
                                plugin: plugin.name,
                                plan: PLAN_LABELS[plan] ?? plan,
                              })}
                              data-testid={`plugin-switch-${plan}`}
                            />
                          </td>
                        )
                      })}
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </div>
        )}
      </div>
    </AppLayout>
  )
}
